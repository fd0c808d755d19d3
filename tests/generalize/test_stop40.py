"""Mends of stop 40, each shape run through Dynamo 2.13 (CPU, eager backend) in the test itself.

- A decorator made like `torch.jit.script_if_tracing` (it marks the wrapper it returns with
  `__script_if_tracing_wrapper` and keeps the function as `__original_fn`): Dynamo traces the decorated
  function in the wrapper's place, so the wrapper's own body (`if not is_tracing():`, which breaks) never runs
  under Dynamo while the function traces cleanly. asteroid-filterbanks copies torch's decorator; breaklint
  reported `torch._C._is_tracing()` inside it (BL502), a false positive on the dev split.
"""
import pytest

from .helpers import check_tree, dynamo_package_rows, entry_calling

SCRIPTING = """
    import functools
    import torch


    def is_tracing():
        return torch._C._is_tracing()


    def script_if_tracing(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            if not is_tracing():
                return fn(*args, **kwargs)
            compiled_fn = torch.jit.script(wrapper.__original_fn)
            return compiled_fn(*args, **kwargs)

        wrapper.__original_fn = fn
        wrapper.__script_if_tracing_wrapper = True
        return wrapper
    """


def _package(body: str, marked: bool = True) -> dict:
    scripting = SCRIPTING if marked else SCRIPTING.replace("        wrapper.__script_if_tracing_wrapper = True\n", "")
    return {"pkg/__init__.py": "", "pkg/scripting.py": scripting, "entry.py": entry_calling("model", "conv"),
            "pkg/model.py": f"""
        import torch
        from .scripting import script_if_tracing


        @script_if_tracing
        def conv(x: torch.Tensor) -> torch.Tensor:
        {body}
            return x * 2
        """}


def test_a_script_if_tracing_wrapper_is_not_traced_when_its_function_traces_cleanly(tmp_path):
    files = _package("    y = x + 1")
    assert check_tree(tmp_path / "static", files) == set()
    pytest.importorskip("torch")
    assert dynamo_package_rows(tmp_path / "dynamo", files) == set()


def test_the_decorated_function_itself_is_traced(tmp_path):
    files = _package("    print(x)")
    found = check_tree(tmp_path / "static", files)
    assert ("pkg/model.py", 7, "BL201") in found
    # The wrapper runs as a frame of its own only after the function broke: a consequence of the print,
    # gone once it is fixed, and not reported.
    assert not any(path == "pkg/scripting.py" for path, _, _ in found)
    pytest.importorskip("torch")
    assert ("pkg/model.py", 7) in dynamo_package_rows(tmp_path / "dynamo", files)


def test_an_unmarked_wrapper_is_traced_as_before(tmp_path):
    files = _package("    y = x + 1", marked=False)
    assert ("pkg/scripting.py", 6, "BL502") in check_tree(tmp_path / "static", files)
    pytest.importorskip("torch")
    assert ("pkg/scripting.py", 6) in dynamo_package_rows(tmp_path / "dynamo", files)
