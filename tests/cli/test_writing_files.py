"""#14 items 10, 11 and 12: writing fixed files keeps what the user had (links, inode, owner, mode,
line endings), never writes a read-only file; --diff output is a patch that applies; special files
and a killed run leave nothing hanging."""
import os
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
import time

import pytest

from cli_helpers import HAZARD, ROOT, invoke, write

FIXED_MARK = "is_compiling"


def test_fixing_a_symlink_fixes_its_target_and_keeps_the_link(project):
    target = write(project / "real" / "model.py", HAZARD)
    link = project / "link.py"
    os.symlink(target, link)
    invoke("check", "--fix", "link.py")
    assert link.is_symlink()
    assert FIXED_MARK in target.read_text()


def test_hard_links_inode_and_mode_are_kept(project):
    path = write(project / "model.py", HAZARD)
    os.chmod(path, 0o640)
    other = project / "other_name.py.txt"
    os.link(path, other)
    inode = os.stat(path).st_ino
    invoke("check", "--fix", "model.py")
    assert os.stat(path).st_ino == inode
    assert FIXED_MARK in other.read_text()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640


@pytest.mark.skipif(os.geteuid() != 0, reason="changing a file's group needs root")
def test_owner_and_group_are_kept(project):
    path = write(project / "model.py", HAZARD)
    os.chown(path, 12345, 23456)
    invoke("check", "--fix", "model.py")
    info = os.stat(path)
    assert (info.st_uid, info.st_gid) == (12345, 23456)
    assert FIXED_MARK in path.read_text()


def test_a_read_only_file_is_reported_and_never_written(project):
    path = write(project / "model.py", HAZARD)
    os.chmod(path, 0o444)
    result = invoke("check", "--fix", "model.py")
    assert path.read_text() == HAZARD
    assert "read-only" in result.output and result.exit_code == 1


def test_each_line_keeps_its_own_ending(project):
    lines = HAZARD.splitlines(keepends=True)
    lines[1] = lines[1].replace("\n", "\r\n")  # one CRLF line in an LF file
    path = project / "model.py"
    path.write_bytes("".join(lines).encode())
    invoke("check", "--fix", "model.py")
    data = path.read_bytes()
    assert FIXED_MARK.encode() in data
    assert data.count(b"\r\n") == 1 and data.count(b"\r") == 1


def test_a_cr_only_file_is_fixed_and_stays_cr_only(project):
    path = project / "model.py"
    path.write_bytes(HAZARD.replace("\n", "\r").encode())
    result = invoke("check", "--fix", "model.py")
    data = path.read_bytes()
    assert "does not parse" not in result.output
    assert FIXED_MARK.encode() in data and b"\n" not in data


# -- --diff -----------------------------------------------------------------------------------------

def _apply_both_ways(repo, patch: bytes):
    subprocess.run(["git", "apply", "--check", "-"], cwd=repo, input=patch, check=True, capture_output=True)
    subprocess.run(["patch", "-p1", "--dry-run", "-s"], cwd=repo, input=patch, check=True, capture_output=True)


@pytest.fixture
def git_repo(project):
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    return project


def test_diff_marks_a_missing_final_newline_and_applies(git_repo):
    write(git_repo / "a.py", HAZARD.replace('        return x * 2\n', '        print("end")'))
    write(git_repo / "b.py", HAZARD)
    result = invoke("check", "--diff", "a.py", "b.py")
    patch = result.stdout_bytes
    assert b"\\ No newline at end of file\n" in patch
    _apply_both_ways(git_repo, patch)


def test_a_latin1_files_diff_is_in_its_own_encoding(git_repo):
    source = "# -*- coding: latin-1 -*-\n" + HAZARD.replace('"x"', '"caf\u00e9"')
    (git_repo / "m.py").write_bytes(source.encode("latin-1"))
    patch = invoke("check", "--diff", "m.py").stdout_bytes
    assert "caf\u00e9".encode("latin-1") in patch
    _apply_both_ways(git_repo, patch)


def test_diff_applies_over_the_fixture_tree(git_repo):
    shutil.copytree(ROOT / "fixtures", git_repo / "fixtures")
    fixed = git_repo.parent / "fixed"
    shutil.copytree(git_repo, fixed)
    result = invoke("check", "--no-cache", "--unsafe-fixes", "--diff", "fixtures")
    patch = result.stdout_bytes
    assert patch.count(b"\n+++ b/") >= 5
    _apply_both_ways(git_repo, patch)
    subprocess.run(["patch", "-p1", "-s"], cwd=git_repo, input=patch, check=True)
    os.chdir(fixed)
    invoke("check", "--no-cache", "--unsafe-fixes", "--fix", "fixtures")
    for path in (fixed / "fixtures").glob("*.py"):
        assert path.read_bytes() == (git_repo / "fixtures" / path.name).read_bytes(), path.name


# -- hangs and leftovers ----------------------------------------------------------------------------

def _run_cli(*args, cwd, timeout=120):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    return subprocess.run([sys.executable, "-m", "breaklint", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, env=env)


def test_a_fifo_named_like_python_is_reported_not_read(project):
    write(project / "pkg" / "model.py", HAZARD)
    os.mkfifo(project / "pkg" / "x.py")
    result = _run_cli("check", "--no-cache", "pkg", cwd=project)
    assert "x.py" in result.stderr + result.stdout and "not a regular file" in result.stderr + result.stdout
    assert "BL201" in result.stdout


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent's death signal is Linux's")
def test_pool_workers_die_with_a_killed_parent(project):
    for i in range(20):
        write(project / f"m{i}.py", HAZARD)
    script = textwrap.dedent("""
        import glob, sys, time
        from breaklint.lint.config import Settings
        from breaklint.lint.runner import _Workers
        workers = _Workers(Settings(), 2)
        list(workers.run([(p, None) for p in sorted(glob.glob("m*.py"))], None))
        print(" ".join(str(p.pid) for p in workers._pool.procs), flush=True)
        time.sleep(600)
    """)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    parent = subprocess.Popen([sys.executable, "-c", script], cwd=project, stdout=subprocess.PIPE, text=True, env=env)
    pids = [int(p) for p in parent.stdout.readline().split()]
    assert pids and all(_alive(p) for p in pids)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 30  # a bound on waiting, not a timing assertion
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    leftover = [p for p in pids if _alive(p)]
    for pid in leftover:
        os.kill(pid, signal.SIGKILL)
    assert not leftover
