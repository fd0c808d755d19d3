import pytest

torch = pytest.importorskip("torch")

from breaklint.confirm.compare import compare_outputs  # noqa: E402

pytestmark = pytest.mark.torch


def test_equal_within_tolerance_reports_max_diff():
    a = torch.ones(3)
    c = compare_outputs((a, {"k": a}), (a + 1e-7, {"k": a}))
    assert c.equal and 0 < c.max_abs_diff < 1e-6


def test_differences_are_named_by_path():
    a = torch.ones(3)
    c = compare_outputs({"x": [a, a]}, {"x": [a, a * 2]})
    assert not c.equal and "out['x'][1]" in c.detail and c.max_abs_diff == pytest.approx(1.0)


def test_shape_dtype_structure_and_python_values():
    a = torch.ones(3)
    assert "vs" in compare_outputs(a, torch.ones(4)).detail
    assert not compare_outputs(a, a.double()).equal
    assert compare_outputs((a,), (a, a)).detail == "outputs have different structure"
    assert compare_outputs((a, 3), (a, 3)).equal and not compare_outputs((a, 3), (a, 4)).equal
    nan = torch.tensor([float("nan"), 1.0])
    assert compare_outputs(nan, nan.clone()).equal
