"""A module built in traced code: Dynamo 2.13 inlines its __init__ (issue #11, stop 26).

Measured with backend="eager": `Block(d)(x)` in a compiled forward, whose __init__ logs, breaks at
the log call (and again with GB0119 at its `super().__init__()`); one whose __init__ builds an
nn.Linear breaks in the Parameter it makes; `self.items.append(d)` in that __init__ recompiles
nothing over 5 calls (the object is new on every call)."""
from .helpers import check_tree, codes_by_row, findings_of

BUILT = """
    import logging
    import torch
    from torch import nn
    logger = logging.getLogger(__name__)
    class Block(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.items = []
            self.items.append(dim)
            self.count = 0
            self.count += 1
            self.proj = nn.Linear(dim, dim)
            logger.info("built")
        def forward(self, x):
            return self.proj(x)
    class Net(nn.Module):
        def forward(self, x):
            return Block(x.shape[-1])(x)
    """


def test_the_init_of_a_module_built_in_traced_code_is_traced():
    got = codes_by_row(BUILT)
    assert (14, "BL202") in got
    assert (13, "BL301") in got


def test_its_self_is_new_so_state_rules_stay_silent():
    got = codes_by_row(BUILT)
    assert not any(code.startswith("BL6") for _, code in got)


def test_the_advice_names_the_built_class_not_its_init():
    message = next(f.message for f in findings_of(BUILT) if f.code == "BL301")
    assert "builds a Block" in message and "create it once in __init__" not in message


def test_a_module_built_only_outside_traced_code_keeps_its_init_untraced():
    got = codes_by_row("""
        import torch
        from torch import nn
        class Block(nn.Module):
            def __init__(self, dim):
                super().__init__()
                print("built")
            def forward(self, x):
                return x
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.block = Block(3)
            def forward(self, x):
                return self.block(x)
        """)
    assert not any(code == "BL201" for _, code in got)


def test_a_module_of_another_file_built_in_traced_code(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/blocks.py": """
            from torch import nn
            class Block(nn.Module):
                def __init__(self, dim):
                    super().__init__()
                    print("built", dim)
                def forward(self, x):
                    return x
            """,
        "pkg/net.py": """
            from torch import nn
            from .blocks import Block
            class Net(nn.Module):
                def forward(self, x):
                    return Block(3)(x)
            """,
    })
    assert ("pkg/blocks.py", 5, "BL201") in got


def test_a_built_module_whose_init_breaks_breaks_again_at_its_first_use_of_self():
    got = codes_by_row(BUILT)
    assert (8, "BL306") in got  # super().__init__(): GB0119, measured


def test_bl306_alone_still_sees_the_other_rules_breaks():
    import textwrap

    from breaklint.lint.engine import LintSettings, lint_source
    from breaklint.rules import rule_by_code

    findings, _ = lint_source(textwrap.dedent(BUILT), "snippet.py", LintSettings(rules=[rule_by_code("BL306")()]))
    assert [(f.row, f.code) for f in findings] == [(8, "BL306")]


def test_no_bl306_where_the_init_does_not_break_or_the_class_is_not_a_module():
    got = codes_by_row("""
        import torch
        from torch import nn
        class Clean(nn.Module):
            def __init__(self, k):
                super().__init__()
                self.k = k
            def forward(self, x):
                return x * self.k
        class Plain:
            def __init__(self, k):
                print("plain", k)
                self.k = k
        class Net(nn.Module):
            def forward(self, x):
                return Clean(Plain(3).k)(x)
        """)
    assert (12, "BL201") in got
    assert not any(code == "BL306" for _, code in got)


def test_bl306_follows_super_init_up_the_file_s_bases():
    # Measured: Sub built in forward breaks at its print, its super().__init__() and Base's (GB0119);
    # Mid inherits Base's __init__.
    got = codes_by_row("""
        import torch
        from torch import nn
        class Base(nn.Module):
            def __init__(self):
                super().__init__()
                self.k = 2
        class Mid(Base):
            def helper(self):
                return 1
        class Sub(Mid):
            def __init__(self):
                super().__init__()
                print("sub")
            def forward(self, x):
                return x * self.k
        class Net(nn.Module):
            def forward(self, x):
                return Sub()(x)
        """)
    assert {(6, "BL306"), (13, "BL306"), (14, "BL201")} <= got
