"""Target strings and factory results; no torch needed."""
import os

import pytest

from breaklint.confirm.target import TargetError, normalize_factory_result, parse_target


def test_module_target():
    spec = parse_target("pkg.models:make_model")
    assert (spec.module, spec.file, spec.factory) == ("pkg.models", None, "make_model")


def test_file_target_is_made_absolute(tmp_path):
    spec = parse_target("sub/model.py:factory", cwd=str(tmp_path))
    assert spec.file == os.path.join(str(tmp_path), "sub", "model.py") and spec.factory == "factory"


@pytest.mark.parametrize("raw", ["pkg.models", "pkg.models:", ":factory", "pkg.models:make-model", "pkg..x:f"])
def test_malformed_targets_are_rejected_with_a_phase(raw):
    with pytest.raises(TargetError) as info:
        parse_target(raw)
    assert info.value.phase == "target" and raw in str(info.value)


def test_factory_results_are_normalised():
    spec = parse_target("m:f")
    fn = abs
    assert normalize_factory_result((fn, [1]), spec) == (fn, (1,), {})
    assert normalize_factory_result((fn, 1, {"k": 2}), spec) == (fn, (1,), {"k": 2})
    with pytest.raises(TargetError, match=r"\(model, args\)"):
        normalize_factory_result(42, spec)
    with pytest.raises(TargetError, match="not callable"):
        normalize_factory_result((3, ()), spec)


def test_registering_confirm_commands_does_not_import_torch():
    # `breaklint check` loads the CLI, which registers confirm/calibrate: torch must stay unloaded.
    import subprocess
    import sys

    src = os.path.join(os.path.dirname(__file__), "..", "..", "src")
    code = "import sys, breaklint.cli, breaklint.confirm.cli; assert 'torch' not in sys.modules, 'torch imported'"
    env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
