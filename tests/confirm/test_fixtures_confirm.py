"""The shipped fixtures under Dynamo on the installed torch: every break is on a `# expect:` line and
is confirmed by a finding of an expected code; clean fixtures do not break. In-process and backend
eager (fast); the full confirm pipeline on the composites is the slow test below."""
import glob
import json
import os
import re

import pytest

torch = pytest.importorskip("torch")

from breaklint.confirm.join import FindingRef, join  # noqa: E402
from breaklint.confirm.observe import observe  # noqa: E402

pytestmark = pytest.mark.torch
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURES = sorted(p for p in glob.glob(os.path.join(ROOT, "fixtures", "*.py")) if not p.endswith("__init__.py"))
EXPECT = re.compile(r"#\s*expect:\s*([A-Z0-9, ]+)")
COMPOSITES = [n for n in ("attention_padding", "greedy_decoder", "moe_router", "norm_rescale", "varlen_pooling")
              if os.path.exists(os.path.join(ROOT, "fixtures", n + ".py"))]


def expectations(path):
    out = {}
    with open(path, encoding="utf-8") as fh:
        for i, line in enumerate(fh, 1):
            m = EXPECT.search(line)
            if m:
                out[i] = {c.strip() for c in m.group(1).split(",") if c.strip()}
    return out


def load_factory(path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("fixture_" + os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.factory


@pytest.mark.parametrize("path", FIXTURES, ids=[os.path.basename(p)[:-3] for p in FIXTURES])
def test_fixture_breaks_are_expected_and_confirmed(path):
    from breaklint.lint.runner import check_paths

    made = load_factory(path)()
    torch.manual_seed(0)
    obs = observe(made[0], made[1], made[2] if len(made) > 2 else None)
    expected = expectations(path)
    here = [b for b in obs.breaks if os.path.realpath(b.file) == os.path.realpath(path)]
    unexpected = [(b.line, b.gb_type) for b in here if b.line not in expected]
    assert unexpected == [], f"breaks on lines without `# expect:`\n{obs.describe()}"
    if os.path.basename(path).startswith("clean_"):
        assert obs.breaks == [], obs.describe()
    findings = [FindingRef.from_finding(f) for f in check_paths([path], use_cache=False).findings]
    joined = join(obs, findings, {})
    assert [(j.brk.line, j.brk.gb_type) for j in joined.missed] == [], "breaks no rule reports"
    for j in joined.confirmed:
        if os.path.realpath(j.brk.file) == os.path.realpath(path):
            codes = {f.code for f in j.findings}
            assert codes & expected.get(j.brk.line, codes), (j.brk.line, codes, expected.get(j.brk.line))


@pytest.mark.slow
@pytest.mark.skipif(not COMPOSITES, reason="no composite fixtures")
def test_confirm_fixes_composites_with_equal_outputs_and_fewer_breaks(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from breaklint.confirm.cli import confirm

    monkeypatch.chdir(ROOT)
    out = tmp_path / "r.json"
    args = [f"fixtures.{n}:factory" for n in COMPOSITES] + ["--no-bench", "--unsafe-fixes", "--json", str(out),
                                                           "--max-breaks", "1000"]
    result = CliRunner().invoke(confirm, args, catch_exceptions=False)
    data = json.loads(out.read_text())
    problems = []
    for t in data["targets"]:
        if t["failure"] is not None:
            problems.append((t["target"], t["failure"]["phase"], t["failure"]["message"]))
        elif not t["fixes_applied"]:
            problems.append((t["target"], "no fix applied", len(t["before"]["breaks"])))
        elif t["outputs_equal"] is not True:
            problems.append((t["target"], "outputs differ", t["comparison"]))
        elif len(t["after"]["breaks"]) >= len(t["before"]["breaks"]):
            problems.append((t["target"], "breaks not fewer", len(t["before"]["breaks"]), len(t["after"]["breaks"])))
    assert problems == [], result.output
    assert result.exit_code in (0, 1), result.output
