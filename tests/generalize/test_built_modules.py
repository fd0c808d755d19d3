"""A module built in traced code: Dynamo 2.13 inlines its __init__ (issue #11, stop 26).

Measured with backend="eager": `Block(d)(x)` in a compiled forward, whose __init__ logs, breaks at
the log call (and again with GB0119 at its `super().__init__()`); one whose __init__ builds an
nn.Linear breaks in the Parameter it makes, and nothing after its first use of self breaks then;
`self.items.append(d)` in that __init__ recompiles nothing over 5 calls (the object is new on every
call). The review of stop 26 measured the cascades below on torchmetrics' NISQA model and on
reproducers of each shape."""
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
    assert (13, "BL301") in got
    # measured: after that first break the __init__ reruns on its own, stops at GB0119 on line 8
    # and runs the rest eagerly: the logger call on line 14 never breaks
    assert (14, "BL202") not in got


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


def test_a_cascade_of_modules_built_in_an_init_that_breaks():
    # NISQA's shape, measured: the first nn.Conv2d breaks once (inlined), then every __init__ starts
    # on a half-built self (GB0119 at each super().__init__()), and no later layer breaks.
    got = codes_by_row("""
        import torch
        from torch import nn
        class Inner(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv1 = nn.Conv2d(1, 2, 3)
                self.conv2 = nn.Conv2d(2, 2, 3)
        class Other(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(2, 2)
        class Outer(nn.Module):
            def __init__(self):
                super().__init__()
                self.inner = Inner()
                self.other = Other()
            def forward(self, x):
                return x
        class Net(nn.Module):
            def forward(self, x):
                return Outer()(x)
        """)
    assert {(6, "BL306"), (7, "BL301"), (11, "BL306"), (15, "BL306")} <= got
    assert (8, "BL301") not in got and (12, "BL301") not in got


def test_init_breaks_that_come_from_a_call():
    got = codes_by_row("""
        import torch
        from torch import nn
        def announce(k):
            print("built", k)
        class ViaHelper(nn.Module):
            def __init__(self, k):
                super().__init__()
                announce(k)
        class Explicit(nn.Module):
            def __init__(self):
                nn.Module.__init__(self)
                print("never reached")
        class Net(nn.Module):
            def forward(self, x):
                return ViaHelper(3)(x) + Explicit()(x)
        """)
    assert {(5, "BL201"), (8, "BL306"), (12, "BL306")} <= got
    assert (13, "BL201") not in got  # measured: nn.Module.__init__(self) breaks first (a skipped function)


def test_bl306_keeps_the_condition_of_the_break_it_follows():
    findings = findings_of("""
        import torch
        from torch import nn
        class Verbose(nn.Module):
            def __init__(self, k, verbose=False):
                super().__init__()
                if verbose:
                    print("built", k)
        class Net(nn.Module):
            def forward(self, x):
                return Verbose(3)(x)
        """)
    bl306 = [f for f in findings if f.code == "BL306"]
    assert bl306 and bl306[0].breaks_when == "verbose"


def test_a_nested_def_reading_self_is_not_the_first_use():
    got = codes_by_row("""
        import torch
        from torch import nn
        class Clo(nn.Module):
            def __init__(self, k):
                def get_k():
                    return self.k
                super().__init__()
                self.get_k = get_k
                print("built", k)
        class Net(nn.Module):
            def forward(self, x):
                return Clo(3)(x)
        """)
    assert (8, "BL306") in got and (6, "BL306") not in got


def test_state_rules_stay_silent_in_a_method_the_constructor_calls_on_self():
    got = codes_by_row("""
        import torch
        from torch import nn
        class Acc(nn.Module):
            def __init__(self, k):
                super().__init__()
                self.items = []
                self.count = 0
                self._setup(k)
            def _setup(self, k):
                self.items.append(k)
                self.count += 1
            def forward(self, x):
                return x * self.count
        class Net(nn.Module):
            def forward(self, x):
                return Acc(3)(x)
        """)
    assert not any(code.startswith("BL6") for _, code in got)


NEW_OBJECTS = """
    import torch
    from torch import nn
    class Solver:
        def __init__(self, y0):
            self.y0 = y0
        def integrate(self, t):
            if t.sum() > 0:
                return self.y0 * 2
            return self.y0
    class MSolver(nn.Module):
        def __init__(self, k):
            super().__init__()
            self.k = k
        def integrate(self, t):
            if t.sum() > 0:
                return t * 2
            return t
    def run(solver, t):
        return solver.integrate(t) + 1
    def solve(y0, t):
        solver = Solver(y0)
        return solver.integrate(t)
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.kept = Solver(torch.ones(4))
        def forward(self, x):
            a = solve(x, x)
            b = MSolver(2).integrate(x)
            c = run(Solver(x), x)
            d = self.kept.integrate(x)
            return a + b + c + d
    """


def test_a_breaking_method_called_on_an_object_the_function_builds():
    # Measured (recon*.py probes of stop 26): GB0092 at lines 23 and 30, GB0119 at 13 (MSolver is built
    # in the forward Dynamo then skips); none for the object passed to run() or kept on self.
    got = codes_by_row(NEW_OBJECTS)
    assert {(23, "BL507"), (30, "BL507"), (13, "BL306")} <= got
    assert sum(code == "BL507" for _, code in got) == 2


def test_a_module_built_in_a_function_dynamo_skips_for_a_loop():
    # Measured: the loop's break skips the whole forward; Clean, built before the loop, then breaks
    # at its super().__init__() (GB0119).
    got = codes_by_row("""
        import torch
        from torch import nn
        class Clean(nn.Module):
            def __init__(self, k):
                super().__init__()
                self.k = k
            def forward(self, x):
                return x * self.k
        class Net(nn.Module):
            def forward(self, x):
                c = Clean(2)
                for i in range(2):
                    if x.sum() > i:
                        x = x + 1
                return c(x)
        """)
    assert (6, "BL306") in got


def test_a_module_built_beside_a_recurrent_layer_call():
    # Measured: calling an nn.LSTM skips the whole forward (GB0014); Clean then breaks at line 6.
    got = codes_by_row("""
        import torch
        from torch import nn
        class Clean(nn.Module):
            def __init__(self, k):
                super().__init__()
                self.k = k
            def forward(self, x):
                return x * self.k
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.rnn = nn.LSTM(4, 4, batch_first=True)
            def forward(self, x):
                c = Clean(2)
                out, _ = self.rnn(x)
                return c(out)
        """)
    assert {(6, "BL306"), (16, "BL305")} <= got


def test_a_breaking_base_init_run_by_super_is_the_first_break():
    # The second review of stop 26 (r04), measured: Base's print breaks first (8), then GB0119 at
    # Base's super().__init__() (7) and at Block's (14).
    got = codes_by_row("""
        import torch
        from torch import nn
        class Base(nn.Module):
            def __init__(self):
                super().__init__()
                print("base")
        class Block(Base):
            def __init__(self):
                super().__init__()
                self.k = 2
            def forward(self, x):
                return x * self.k
        class Net(nn.Module):
            def forward(self, x):
                return Block()(x)
        """)
    assert {(6, "BL306"), (7, "BL201"), (10, "BL306")} <= got


def test_a_guarded_break_in_a_helper_is_no_sure_trigger():
    # r10, measured: no break at all when the helper's print does not run.
    got = codes_by_row("""
        import torch
        from torch import nn
        def maybe_log(k, verbose=False):
            if verbose:
                print(k)
        class Block(nn.Module):
            def __init__(self, k):
                super().__init__()
                maybe_log(k)
            def forward(self, x):
                return x
        class Net(nn.Module):
            def forward(self, x):
                return Block(3)(x)
        """)
    assert not any(code == "BL306" for _, code in got)


def test_an_imported_builder_before_the_first_known_break_hides_it():
    # DISTS' shape (r21), measured: vgg-like builders break first (in the imported code), so the
    # nn.Parameter after the first use of self is never reached.
    got = codes_by_row("""
        import torch
        from torch import nn
        from torchvision.models import vgg16
        class Dists(nn.Module):
            def __init__(self):
                super().__init__()
                self.features = vgg16().features
                self.alpha = nn.Parameter(torch.randn(3))
            def forward(self, x):
                return x
        class Net(nn.Module):
            def forward(self, x):
                return Dists()(x)
        """)
    assert (9, "BL302") not in got


def test_a_class_default_is_not_a_callable_default():
    # r26 / PyG's GLEM: `gnn=GraphSAGE` as a default, an instance passed in: Dynamo reports nothing.
    got = codes_by_row("""
        import torch
        from torch import nn
        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(4, 4)
            def forward(self, x):
                return self.lin(x)
        class Wrap(nn.Module):
            def __init__(self, gnn=Block):
                super().__init__()
                self.gnn = gnn
            def forward(self, x):
                return self.gnn(x)
        """)
    assert not any(code in ("BL301", "BL306") for _, code in got)


def test_the_first_use_of_self_inside_a_try():
    # r16 TryInit, measured: Dynamo reports the super().__init__() inside the try, not the try.
    got = codes_by_row("""
        import torch
        from torch import nn
        class TryInit(nn.Module):
            def __init__(self):
                print("t")
                try:
                    super().__init__()
                except RuntimeError:
                    pass
                self.k = 2
            def forward(self, x):
                return x * self.k
        class Net(nn.Module):
            def forward(self, x):
                return TryInit()(x)
        """)
    assert (8, "BL306") in got and (7, "BL306") not in got
