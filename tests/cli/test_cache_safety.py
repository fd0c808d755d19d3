"""#14 item 9 and the last point of item 10: the results cache is data only, never follows a planted
symlink, survives any content, and never serves a file edited within its mtime's granularity."""
import os
import pickle
import time

from breaklint.lint.cache import FORMAT, ResultCache
from cli_helpers import CLEAN, HAZARD, invoke, write


class _RunsACommand:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_a_planted_pickle_is_never_executed(project, tmp_path):
    write(project / "model.py", HAZARD)
    invoke("check", "model.py")
    cache_files = list((project / ".breaklint_cache").glob("results-*"))
    assert cache_files
    marker = tmp_path / "PWNED"
    payload = pickle.dumps({"x": _RunsACommand(marker)})
    for path in cache_files:
        stem = path.name.split(".")[0]
        for suffix in (".pickle", ".json"):
            (path.parent / (stem + suffix)).write_bytes(payload)
    result = invoke("check", "model.py")
    assert result.exit_code == 1 and "BL201" in result.output
    assert not marker.exists()


def test_a_symlinked_cache_folder_is_not_followed(project, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, project / ".breaklint_cache")
    write(project / "model.py", HAZARD)
    assert invoke("check", "model.py").exit_code == 1
    assert list(elsewhere.iterdir()) == []


def test_a_cache_of_the_wrong_shape_is_discarded(project):
    write(project / "model.py", HAZARD)
    invoke("check", "model.py")
    model = str(project / "model.py")
    shapes = ['[1, 2]', '{"format": 6, "entries": {"x": 5}}', '{"format": 6, "entries": [["x", "5"]]}',
              '{"format": 6, "entries": [[{"c": "os"}, "1"]]}',
              '{"format": 6, "entries": [["%s", "{\\"t\\": [1, 2, \\"x\\", false, {\\"c\\": \\"Finding\\", \\"v\\": {}}]}"]]}'
              % model,
              '{"format": 6, "entries": [["%s", "{\\"t\\": [1, 2, \\"x\\", false, {\\"c\\": \\"FileOutcome\\", '
              '\\"v\\": {\\"findings\\": 7, \\"error\\": null, \\"lines\\": 1, \\"suppressed\\": 0, '
              '\\"summary\\": null}}]}"]]}' % model]
    for text in shapes:
        for path in (project / ".breaklint_cache").glob("results-*"):
            path.write_text(text)
        result = invoke("check", "model.py")
        assert result.exit_code == 1 and "BL201" in result.output, (text, result.output)


def test_a_same_size_edit_within_the_mtime_granularity_is_not_served_stale(tmp_path):
    path = write(tmp_path / "m.py", HAZARD)
    cache = ResultCache(str(tmp_path), "fp")
    cache.store(str(path), ("first",))
    stamp = os.stat(path).st_mtime_ns
    path.write_text(HAZARD.replace("x.shape", "y.shape"))  # same size, same second
    os.utime(path, ns=(stamp, stamp))
    assert cache.lookup(str(path)) is None


def test_cache_round_trips_real_results(project):
    for i in range(3):
        write(project / f"m{i}.py", HAZARD if i else CLEAN)
    first = invoke("check", "--output-format", "json", ".")
    second = invoke("check", "--output-format", "json", ".")
    assert first.stdout == second.stdout and first.exit_code == second.exit_code == 1


def test_fix_transforms_round_trip_and_only_breaklint_functions_are_named():
    """A finding's LibCST transform is stored by its factory's name, and a cache naming any other
    function is discarded."""
    import pytest

    from breaklint.lint import cache
    from breaklint.model import Fix, Transform
    from breaklint.fix.rewrite import guard_transformer

    fix = Fix("guard", "safe", (), ("torch",), Transform(guard_transformer, ("torch", True), frozenset({3})))
    text = __import__("json").dumps(cache.encode(fix))
    assert cache.decode(text) == fix
    for name in ("os:system", "breaklint.fix.rewrite:__import__", "breaklint.fix.rewrite:TorchName",
                 "breaklint.confirm.worker:main", "subprocess:run"):
        with pytest.raises(cache.CacheFormatError):
            cache.decode(text.replace("breaklint.fix.rewrite:guard_transformer", name))


def test_results_of_old_settings_are_pruned_but_links_and_other_files_kept(project, tmp_path):
    """Every settings fingerprint (a breaklint upgrade, another --select) writes its own results
    file; without pruning a long-lived checkout collected one per upgrade, tens of MB each."""
    write(project / "model.py", HAZARD)
    cache_dir = project / ".breaklint_cache"
    written = {}
    for select in ("BL1", "BL2", "BL3", "BL4"):
        before = set(cache_dir.glob("results-*.json"))
        invoke("check", "model.py", "--select", select)
        (written[select],) = set(cache_dir.glob("results-*.json")) - before
        for path in cache_dir.glob("results-*.json"):  # older writes look older to mtime
            stamp = path.stat().st_mtime_ns
            os.utime(path, ns=(stamp - 10**9, stamp - 10**9))
    target = tmp_path / "kept.json"
    target.write_text("{}")
    os.symlink(target, cache_dir / "results-0123456789abcdef.json")
    (cache_dir / "notes.txt").write_text("mine")
    invoke("check", "model.py", "--select", "BL5")
    kept = {p for p in cache_dir.glob("results-*.json") if not p.is_symlink()}
    assert len(kept) == 3  # the current settings and the two newest others
    assert {written["BL3"], written["BL4"]} < kept
    assert not {written["BL1"], written["BL2"]} & kept
    assert (cache_dir / "results-0123456789abcdef.json").is_symlink() and target.exists()
    assert (cache_dir / "notes.txt").read_text() == "mine"


def test_temporary_files_of_a_dead_save_are_removed_but_a_fresh_one_is_kept(project):
    write(project / "model.py", HAZARD)
    invoke("check", "model.py")
    cache_dir = project / ".breaklint_cache"
    dead, running = cache_dir / "tmpdead.tmp", cache_dir / "tmprunning.tmp"
    dead.write_text("x" * 100)
    running.write_text("y")
    old = time.time() - 2 * 3600
    os.utime(dead, (old, old))
    write(project / "model.py", HAZARD + "\n")  # a change, so that the cache is saved again
    invoke("check", "model.py")
    assert not dead.exists() and running.exists()


def test_a_damaged_line_of_the_current_format_is_discarded_or_relinted(project):
    """The line format decodes an outcome only when it is served: a line of the wrong layout discards
    the file, and an outcome, summary or graph answer that does not decode is linted again."""
    import json

    write(project / "model.py", HAZARD)
    invoke("check", "model.py")
    cache_file, = (project / ".breaklint_cache").glob("results-*.json")
    good = cache_file.read_text()
    stat = os.stat(project / "model.py")
    head = "F\t%s\t%d\t%d\t" % (json.dumps(str(project / "model.py")), stat.st_size, stat.st_mtime_ns)
    digest = next(line.split("\t")[4] for line in good.split("\n") if line.startswith("F\t"))
    bad_outcome = '{"FileOutcome":[7,null,1,0,null]}'
    lines = [head + digest + "\t0\t" + bad_outcome + "\t",
             head + digest + '\t0\t{"Finding":[]}\t', head + digest + '\t0\t{"c":"Finding","v":{}}\t',
             head + digest + "\t0\t[1, 2]",
             head + digest + "\t2\t[]\t",
             head.replace("F", "X", 1) + digest + "\t0\tab\t[]",
             head + "x\t0\t" + bad_outcome + "\tnot json",
             'T\tkey\t{"a": 1}\t[]',
             "Q\t1"]
    for line in lines:
        for header in (f'{{"format":{FORMAT},"entries":1}}', f'{{"format":{FORMAT},"entries":2}}',
                       f'{{"format":{FORMAT - 1},"entries":1}}'):
            cache_file.write_text(f"{header}\n{line}\n")
            result = invoke("check", "model.py")
            assert result.exit_code == 1 and "BL201" in result.output, (line, result.output)
    cache_file.write_text(good[:len(good) // 2])  # cut short
    assert "BL201" in invoke("check", "model.py").output
