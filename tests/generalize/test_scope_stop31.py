"""Dispatch by method name on a receiver of unknown class (stop 31).

`h.apply_effect(msg)` over a list of handler objects whose classes no analysis can name: every class of the
package that defines `apply_effect` may answer. Up to stop 30 the call was followed only when at most 4
classes define the name; a handler family, a manifold family or a family of variational layers defines it
in more. The limit is now 16 (project.MAX_NAME_DISPATCH), the smallest limit at which the dev split's
scope recall stopped rising (BENCHMARKS.md 5.14); a name that more classes define stays a guess.

Two guards keep the guess from replacing what is known:
- a receiver whose class the call's own function tells (an annotation, a construction, a factory, an
  attribute of self it was unpacked from) is followed to that class only, never by name;
- a call read off the text of a function the graph reached but never analysed keeps the old limit of 4
  (project.MAX_TEXT_NAME_DISPATCH): its receiver was not typed at all.
"""

import pytest

from breaklint.analysis.project import MAX_NAME_DISPATCH

from .helpers import check_tree, dynamo_package_rows


def handler_package(count: int) -> dict:
    """`count` handler classes in pkg/handlers.py, each breaking in apply_effect (row 3 + 5 * i), and a
    function of the package that runs whichever handlers a global stack holds, as effect-handler libraries
    do (dispatch by name stays inside the caller's top-level package)."""
    classes = "".join(f"""
class Handler{i}:
    def apply_effect(self, x):
        int(x.sum().item())
        return x + {i}
""" for i in range(count))
    stack = ", ".join(f"Handler{i}()" for i in range(count))
    return {
        "pkg/__init__.py": "",
        "pkg/handlers.py": classes,
        "pkg/stack.py": f"""from pkg.handlers import *
STACK = []
def push_all():
    STACK.extend([{stack}])
def apply_stack(x):
    for h in reversed(STACK):
        x = h.apply_effect(x)
    return x
""",
        "entry.py": """
            import torch
            from pkg.stack import apply_stack, push_all
            push_all()
            class M(torch.nn.Module):
                def forward(self, x):
                    return apply_stack(x)
            """,
    }


def flagged(found) -> set:
    return {(path, row) for path, row, code in found if code == "BL103" and path.startswith("pkg/")}


def test_a_method_twelve_classes_define_is_followed_on_an_unknown_receiver(tmp_path):
    found = check_tree(tmp_path, handler_package(12))
    assert flagged(found) == {("pkg/handlers.py", 3 + 5 * i) for i in range(12)}


def test_a_method_more_classes_define_than_the_limit_stays_a_guess(tmp_path):
    found = check_tree(tmp_path, handler_package(MAX_NAME_DISPATCH + 1))
    assert flagged(found) == set()


def test_dynamo_traces_each_handler(tmp_path):
    pytest.importorskip("torch")
    assert dynamo_package_rows(tmp_path, handler_package(12)) == {("pkg/handlers.py", 3 + 5 * i) for i in range(12)}


def annotated_receiver_package(import_line: str) -> dict:
    """handler_package(12), plus `apply_first(h: Handler0, x)` in pkg/stack.py (after `import_line`), which
    forward calls: only Handler0.apply_effect runs."""
    files = handler_package(12)
    files["pkg/stack.py"] += import_line + "def apply_first(h: Handler0, x):\n    return h.apply_effect(x)\n"
    files["entry.py"] = """
        import torch
        from pkg.stack import apply_first
        from pkg.handlers import Handler0
        class M(torch.nn.Module):
            def forward(self, x):
                return apply_first(Handler0(), x)
        """
    return files


def test_a_receiver_of_known_class_is_not_dispatched_by_name(tmp_path):
    files = annotated_receiver_package("from pkg.handlers import Handler0\n")
    assert flagged(check_tree(tmp_path, files)) == {("pkg/handlers.py", 3)}


def test_an_annotation_naming_a_class_of_a_star_import_types_the_receiver(tmp_path):
    """pkg/stack.py has only `from pkg.handlers import *`: `h: Handler0` still names Handler0."""
    files = annotated_receiver_package("")
    assert flagged(check_tree(tmp_path, files)) == {("pkg/handlers.py", 3)}
