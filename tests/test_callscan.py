"""The call graph reads untraced functions' calls off the text (callscan.py): what it must see and
what it must not (calls spelled in strings and comments, def/class headers)."""
import textwrap

from breaklint.analysis.callscan import CallText
from breaklint.analysis.summary import ATTRIBUTE, GLOBAL, LOCAL, SELF, SUPER, ModuleSummary, text_calls


def spellings(source: str) -> list[tuple[str, bool]]:
    text = CallText(textwrap.dedent(source))
    return text.spellings(1, len(text._starts))


def test_dotted_calls_super_and_methods_on_results():
    found = spellings("""
        out = helper(x)
        y = self.proj (x)
        z = super().forward(x)
        w = super(Net, self).forward(x)
        v = torch.nn.functional.relu(
            x)
        u = make(x)[0].scale(2).finish()
        """)
    assert found == [("helper", False), ("self.proj", False), ("super().forward", False),
                     ("super(Net,self).forward", False), ("torch.nn.functional.relu", False),
                     ("make", False), ("scale", True), ("finish", True)]


def test_strings_comments_and_headers_are_not_calls():
    found = spellings('''
        def outer(x):
            """Calls helper(x) in a docstring."""
            msg = "fake(x) # not a comment"
            # commented_out(x)
            class Inner(Base):
                pass
            def inner(y):
                return y
            return real(x, f"{x}"), 'quote # inside', real2(x)
        ''')
    assert found == [("real", False), ("real2", False)]


def test_line_ranges_select_one_function():
    text = CallText("def a():\n    one()\n\ndef b():\n    two()\n")
    assert text.spellings(2, 2) == [("one", False)]
    assert text.spellings(5, 5) == [("two", False)]


def test_spellings_become_the_same_call_kinds_as_the_tree_walk():
    summary = ModuleSummary(aliases={"F": "torch.nn.functional", "util": "pkg.util"},
                            functions=frozenset({"local_fn"}),
                            classes={"Helper": None},
                            spans={"Net.step": (1, 1, "self")})
    text = CallText("local_fn(util.go(self.message(super().run(Helper.build(F.relu(obj.rare_name(x.view(1)))))))\n")
    refs = {(r.kind, r.name) for r in text_calls(summary, "Net.step", text)}
    assert refs == {(LOCAL, "local_fn"), (GLOBAL, "pkg.util.go"), (SELF, "message"), (SUPER, "run"),
                    (LOCAL, "Helper.build"), (ATTRIBUTE, "rare_name")}
