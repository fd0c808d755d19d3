"""Lint many files: cache lookups, then the rest in a process pool, in chunks."""
from __future__ import annotations

import dataclasses
import gc
import hashlib
import os
import sys
import traceback
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Optional

from .cache import CacheFormatError, ResultCache, load_summary
from .config import Settings
from .files import discover, is_ignored, matching_ignores
from ..model import CheckResult, FileError, FileOutcome
from ..analysis.astwalk import forget_node_facts
from ..analysis.scope import ScopeSettings

if TYPE_CHECKING:
    from ..analysis.project import FileContext
    from .engine import LintSettings

# The engine (and the call graph's analysis) are imported when a file is linted or the graph is
# built: a warm run over an unchanged tree does neither.

# Below this many files a pool costs more than it saves.
PARALLEL_THRESHOLD = 16
CHUNK = 8
# Rounds of the cross-file call graph: each round can reach one call deeper with argument facts.
MAX_GRAPH_ROUNDS = 4

# Source characters whose parsed trees a run keeps for the graph rounds (TreeStore), shared out
# among its processes (the largest files first: those are the ones linted again). Transformers' 42M
# characters fit; measured peak RSS there: 0.74 GB a worker at -j 2 (0.35 GB before), 1.7 GB at -j 1.
TREE_BUDGET = 48_000_000

_worker_settings: Optional[LintSettings] = None
_worker_trees: Optional["TreeStore"] = None


@dataclass
class KeptTree:
    """What a file's lint computes from its text alone and its next lint in this process reuses."""

    source: str
    tree: object
    imports: object  # the tree's ImportMap
    lines: Optional[list] = None  # engine.source_lines(source), once a lint has split them


class TreeStore:
    """Parsed trees kept between a file's lints in one process. The graph rounds lint about two
    thirds as many files again as pass 1, and each of those lints parsed the file again; a file is
    always sent back to the worker that linted it first (_Pool), which reuses its tree when the
    text read again is exactly the text it parsed. Trees are frozen out of the cyclic collector
    (they hold no cycles; the collection after each file would otherwise walk every kept tree),
    and the node memos are dropped after every lint (forget_node_facts): some depend on the file's
    external context, which changes between rounds."""

    def __init__(self, budget: int = TREE_BUDGET):
        self.budget = budget
        self.trees: dict[str, KeptTree] = {}
        self.kept = 0
        self.froze = False

    def get(self, path: str, source: str) -> Optional["KeptTree"]:
        kept = self.trees.get(path)
        return kept if kept is not None and kept.source == source else None

    def keep(self, path: str, source: str, tree, imports) -> Optional["KeptTree"]:
        if path in self.trees or self.kept + len(source) > self.budget:
            return None
        kept = self.trees[path] = KeptTree(source, tree, imports)
        self.kept += len(source)
        gc.freeze()
        self.froze = True
        return kept

    def close(self) -> None:
        self.trees.clear()
        self.kept = 0
        if self.froze:
            gc.unfreeze()
            self.froze = False


def lint_settings(settings: Settings) -> LintSettings:
    from .engine import LintSettings

    return LintSettings(
        rules=[rule() for rule in settings.enabled_rules()],
        scope=ScopeSettings(extra_decorators=tuple(settings.compile_decorators),
                            extra_base_classes=tuple(settings.module_base_classes)),
        torch_version=settings.torch_version(),
    )


def lint_one(path: str, settings: LintSettings, context: Optional[FileContext] = None,
             want_summary: bool = True, trees: Optional[TreeStore] = None) -> FileOutcome:
    """engine.lint_file, but a crash inside breaklint (a rule bug) becomes an internal error for this
    file instead of ending the whole run."""
    from . import engine

    try:
        outcome = engine.lint_file(path, settings, context, want_summary, trees)
        if outcome.error is not None and "recursion" in outcome.error.message:
            outcome = deep_call(engine.lint_file, path, settings, context, want_summary)
        return outcome
    except Exception as exc:  # noqa: BLE001 - anything a rule raises
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{os.path.basename(frame.filename)}:{frame.lineno}"
        message = f"internal error ({type(exc).__name__}: {exc} at {where}); please report it"
        return FileOutcome(error=FileError(os.path.abspath(path), message, internal=True))


# CPython parses a 2000-term `x + x + ...`, whose tree is 2000 levels deep; walking it needs more
# frames than the default limit of 1000. Only a file that hit the limit is linted again, in a thread
# with a large stack and a raised limit (raised for that thread's run only).
DEEP_RECURSION_LIMIT = 60_000
DEEP_STACK_BYTES = 512 * 1024 * 1024


def deep_call(function, *args, **kwargs):
    """function(*args, **kwargs) with room for deep recursion; its exception, if any, is re-raised."""
    import threading

    box: dict = {}

    def target() -> None:
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, DEEP_RECURSION_LIMIT))
        try:
            box["value"] = function(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller's thread
            box["error"] = exc
        finally:
            sys.setrecursionlimit(old)

    previous = threading.stack_size(DEEP_STACK_BYTES)
    try:
        thread = threading.Thread(target=target, name="breaklint-deep")
        thread.start()
    finally:
        threading.stack_size(previous)
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


def _init_worker(settings: Settings, parent: int, budget: int = TREE_BUDGET) -> None:
    global _worker_settings, _worker_trees
    _die_with_parent(parent)
    _worker_settings = lint_settings(settings)
    _worker_trees = TreeStore(budget)


def _worker_main(conn, settings: Settings, parent: int, budget: int = TREE_BUDGET) -> None:
    """A pool worker: lint each chunk of (path, context, keep) the parent sends, send back the
    (path, outcome) pairs; None ends it. It leaves with os._exit: freeing the kept trees one node at a
    time would cost a second of CPU for nothing."""
    code = 0
    try:
        _init_worker(settings, parent, budget)
        while True:
            try:
                work = conn.recv()
            except EOFError:
                break
            if work is None:
                break
            conn.send(_lint_chunk(work))
    except BaseException:  # noqa: BLE001 - the parent sees the pipe close and reports it
        code = 1
    finally:
        try:
            conn.close()
        finally:
            os._exit(code)


PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> None:
    """A worker must not outlive a main process killed with SIGKILL (no chance to shut the pool down):
    on Linux the kernel sends it SIGKILL when its parent dies. Elsewhere the pool's own pipes end it
    at its next task."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # pragma: no cover - no libc prctl
        return
    if os.getppid() != parent:  # the parent died before the prctl took effect
        os._exit(1)


def _lint_chunk(work: list[tuple[str, Optional[FileContext], bool]]):
    return [(path, _lint_and_collect(path, _worker_settings, context, _worker_trees if keep else None))
            for path, context, keep in work]


def _lint_and_collect(path: str, settings: LintSettings, context: Optional[FileContext],
                      trees: Optional[TreeStore] = None) -> FileOutcome:
    """lint_one, then a young-generation collection as a safety net. A file's tensor facts refer to
    each other; FileFacts.close() breaks those cycles so that reference counting frees the file's
    tree at once (before it did, this collection walked every tree: 12% of a single-process run).
    Automatic collection stays off for the run (check_paths): left on, its older-generation passes
    walked every live tree again and again (BENCHMARKS.md)."""
    outcome = lint_one(path, settings, context, trees=trees)
    if trees is not None and trees.trees:
        forget_node_facts()  # the node memos of a kept tree must not reach its next lint
    gc.collect(0)
    return outcome


def project_root_for(paths: list[str], settings: Settings) -> Optional[str]:
    """The folder whose whole tree gives named files their callers: the configuration's folder, else
    the repository root above the first file; None when neither holds every path."""
    from .config import is_vcs_root

    if not paths:
        return None
    if settings.source:
        root = os.path.dirname(os.path.abspath(settings.source))
    else:
        root = None
        folder = os.path.dirname(os.path.abspath(paths[0]))
        while True:
            if is_vcs_root(folder):
                root = folder
                break
            parent = os.path.dirname(folder)
            if parent == folder:
                return None
            folder = parent
    inside = all(os.path.abspath(p).startswith(root.rstrip(os.sep) + os.sep) for p in paths)
    return root if inside else None


def check_source(source: str, filename: str, settings: Optional[Settings] = None) -> CheckResult:
    """Lint one text as if it were the file `filename` (stdin for editors): the file's settings and
    per-file ignores apply; nothing is read from disk or cached."""
    from . import engine

    settings = settings or Settings()
    result = CheckResult()
    path = os.path.abspath(filename)
    try:
        findings, suppressed = engine.lint_source(source, path, lint_settings(settings))
    except SyntaxError as exc:
        where = f"line {exc.lineno}" if exc.lineno else "unknown line"
        result.errors.append(FileError(path, f"syntax error at {where}: {exc.msg}"))
        return result
    except (ValueError, RecursionError) as exc:
        result.errors.append(FileError(path, f"cannot parse: {str(exc).splitlines()[0] if str(exc) else exc}"))
        return result
    if settings.per_file_ignores:
        ignored = matching_ignores(path, settings.per_file_ignores, settings.root)
        findings = [f for f in findings if not is_ignored(f.code, ignored)]
    result.findings = findings
    result.files_checked = 1
    result.lines_checked = source.count("\n") + 1
    result.suppressed = suppressed
    return result


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def check_paths(paths: list[str], settings: Optional[Settings] = None, jobs: Optional[int] = None,
                use_cache: bool = True, on_progress: Optional[Callable[[int, int], None]] = None,
                project_root: Optional[str] = None) -> CheckResult:
    """Lint `paths`. With `project_root`, the call graph is built from every file under it (as mypy
    and pyright analyse imports), and only the findings and errors of `paths` are reported: what
    pre-commit needs when it passes the changed files alone."""
    # ast trees are millions of short-lived objects: the automatic collector is off for the run and
    # each file's garbage is collected when it is done (_lint_and_collect). Forked workers inherit
    # this; the caller's setting is restored afterwards.
    was_enabled = gc.isenabled()
    gc.disable()
    settings = settings or Settings()
    workers = _Workers(settings, jobs or default_jobs())
    try:
        return _check_paths(paths, settings, workers, use_cache, on_progress, project_root)
    finally:
        workers.close()
        if was_enabled:
            gc.enable()


def _check_paths(paths, settings: Settings, workers: "_Workers", use_cache, on_progress,
                 project_root: Optional[str] = None) -> CheckResult:
    excludes = settings.exclude + settings.extend_exclude
    files, problems = discover(paths, excludes, settings.root)
    result = CheckResult(errors=[FileError(os.path.abspath(p), reason) for p, reason in problems])
    named: Optional[set[str]] = None
    if project_root is not None:
        # The rest of the project is context only: its files feed the call graph, never the report.
        named = set(files)
        context, _ = discover([project_root], excludes, settings.root)
        files = files + [path for path in context if path not in named]
    cache = ResultCache(settings.root, settings.fingerprint()) if use_cache else None
    progress = _Progress(on_progress, len(files))

    # Pass 1: every file on its own (cached by content), with the summary the call graph needs.
    outcomes: dict[str, FileOutcome] = {}
    todo = []
    for path in files:
        hit = cache.lookup(path) if cache else None
        if hit is not None:
            outcomes[path] = hit
        else:
            todo.append((path, None))
    progress.advance(len(outcomes))
    for path, outcome in workers.run(todo, progress):
        outcomes[path] = outcome
        if cache is not None and outcome.error is None:
            cache.store(path, outcome)

    # Pass 2: the functions that traced code reaches across files; their files are linted again
    # with those functions as extra scopes (cached by content and by what reaches them). A file
    # linted again knows more argument facts for its own calls, so the graph is redone until
    # nothing new reaches any file.
    # Cached summaries stay JSON text until the graph needs them: an unchanged tree never does.
    summaries: dict = {}
    summarised = sum(1 for o in outcomes.values() if o.summary is not None)
    external: dict = {}
    keys: dict[str, str] = {}
    done_keys: dict[str, str] = {}

    def take(path: str, again: FileOutcome) -> bool:
        """Keep a second lint's findings; say whether it taught the graph new call facts."""
        outcomes[path] = dataclasses.replace(outcomes[path], findings=again.findings, suppressed=again.suppressed)
        if served is not None:  # the graph's last answer is reused as it is: nothing more to learn
            return False
        merged = _merged(summaries[path], _summary(again))
        learned = _learned(merged) != _learned(summaries[path])
        summaries[path] = merged
        return learned

    # An unchanged tree gets the graph's last answer back without building it again, with each
    # file's lint under it: its contexts stay undecoded (--show-scope and --fix read them).
    tree_key = _tree_key(cache, files) if cache is not None else None
    known = cache.get_tree(tree_key) if tree_key else None
    served = _served(cache, known[1], outcomes) if known is not None else None
    if served is not None:
        external = known[0]
        for path, hit in served.items():
            take(path, hit)
    graph = None
    for _round in range(MAX_GRAPH_ROUNDS if summarised and served is None else 0):
        if graph is None:
            summaries.update(_summaries(outcomes, workers))
            # Built once: a round changes only the calls and return facts of summaries (which the
            # graph reads from this same dict), never the classes and imports its indexes hold.
            from ..analysis.project import ProjectGraph

            graph = ProjectGraph(summaries)
        external = graph.contexts()
        keys = {path: _external_key(context) for path, context in external.items()}
        pending = [path for path, key in keys.items() if done_keys.get(path) != key]
        if not pending:
            break
        learned, fresh = False, []
        for path in pending:
            done_keys[path] = keys[path]
            hit = cache.lookup(path, variant=keys[path]) if cache else None
            if hit is not None:
                learned |= take(path, hit)
            else:
                fresh.append((path, external[path]))
        for path, outcome in workers.run(fresh, None):
            if outcome.error is not None:
                outcomes[path] = outcome
                continue
            if cache is not None:
                cache.store(path, outcome, variant=keys[path])
            learned |= take(path, outcome)
        if not learned:
            break
    if tree_key and served is None:
        cache.put_tree(tree_key, external, keys)
    result.external = external

    for path in files:
        if named is not None and path not in named:
            continue
        outcome = outcomes[path]
        findings = outcome.findings
        if outcome.error is not None:
            result.errors.append(outcome.error)
            continue
        if settings.per_file_ignores:
            ignored = matching_ignores(path, settings.per_file_ignores, settings.root)
            findings = [f for f in findings if not is_ignored(f.code, ignored)]
        result.findings.extend(findings)
        result.files_checked += 1
        result.lines_checked += outcome.lines
        result.suppressed += outcome.suppressed
    if cache is not None:
        cache.save()
    result.findings.sort(key=lambda f: f.sort_key())
    return result


class _Progress:
    def __init__(self, callback, total: int):
        self.callback, self.total, self.done = callback, total, 0

    def advance(self, count: int) -> None:
        self.done += count
        if self.callback:
            self.callback(self.done, self.total)


class _Workers:
    """One pool of worker processes for the whole run, started on first need: pass 1 and every graph
    round share it instead of forking a fresh pool (and a larger parent) each round. Each worker keeps
    the trees it parsed (TreeStore), so a graph round sends a file back to the worker that linted it
    first; a worker left with nothing of its own takes the smallest files of another's share, parsed
    again."""

    def __init__(self, settings: Settings, jobs: int):
        self.settings, self.jobs = settings, jobs
        self._pool: Optional[_Pool] = None
        self._local: Optional[LintSettings] = None
        self._trees: Optional[TreeStore] = None

    def run(self, work: list, progress: Optional[_Progress]):
        """(path, outcome) for each (path, FileContext or None) item, in the pool when there are many."""
        if not work:  # a warm run over an unchanged tree: no rule objects, no engine import
            return
        # A pool already started is worth using even for one (large) file: its worker kept the tree.
        if self.jobs > 1 and (len(work) >= PARALLEL_THRESHOLD or (self._pool is not None and work)):
            if self._pool is None:
                self._pool = _Pool(self.settings, self.jobs)
            # Largest files first, in small chunks, so that no worker is left with a big file at the
            # end while the others idle.
            work = sorted(work, key=lambda item: _size(item[0]), reverse=True)
            chunk = max(1, min(CHUNK, len(work) // (self.jobs * 8)))
            yield from self._pool.run(work, chunk, progress)
        else:
            if self._local is None:
                self._local = lint_settings(self.settings)
                self._trees = TreeStore()
            for path, context in work:
                yield path, _lint_and_collect(path, self._local, context, self._trees)
                if progress:
                    progress.advance(1)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        if self._trees is not None:
            self._trees.close()
            self._trees = None


class _Pool:
    """Worker processes fed by the parent over pipes, each file sent to the worker that owns it (the
    one that linted it first). Results come back in the order of `work`, as a map would give them."""

    def __init__(self, settings: Settings, jobs: int):
        import multiprocessing

        from . import engine  # noqa: F401 - imported once here, not after the fork in every worker

        context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
        self.conns, self.procs = [], []
        self.owner: dict[str, int] = {}
        self.clean = True
        for _ in range(jobs):
            mine, theirs = context.Pipe(duplex=True)
            proc = context.Process(target=_worker_main, args=(theirs, settings, os.getpid(), TREE_BUDGET // jobs),
                                   daemon=True)
            proc.start()
            theirs.close()
            self.conns.append(mine)
            self.procs.append(proc)

    def run(self, work: list, chunk: int, progress: Optional[_Progress]):
        from multiprocessing.connection import wait

        count = len(self.conns)
        own: list[deque] = [deque() for _ in range(count)]
        shared: deque = deque()
        for index, (path, context) in enumerate(work):
            owner = self.owner.get(path)
            (shared if owner is None else own[owner]).append((index, path, context))
        done: dict[int, tuple] = {}
        busy: dict[int, list] = {}
        self.clean = False

        def take(worker: int) -> list:
            """Its own files first (largest first), then the unowned ones, then the smallest files of the
            longest other share: those it parses again, keeping no tree."""
            items, keep = [], True
            for queue in (own[worker], shared):
                while queue and len(items) < chunk:
                    items.append(queue.popleft())
                if items:
                    break
            if not items:
                longest = max(range(count), key=lambda w: len(own[w]))
                while own[longest] and len(items) < chunk:
                    items.append(own[longest].pop())
                keep = False
            for _index, path, _context in items:
                if keep:
                    self.owner.setdefault(path, worker)
            return [(index, path, context, keep) for index, path, context in items]

        def send(worker: int) -> None:
            items = take(worker)
            if items:
                busy[worker] = [index for index, _p, _c, _k in items]
                self.conns[worker].send([(path, context, keep) for _i, path, context, keep in items])

        for worker in range(count):
            send(worker)
        following = 0
        while busy:
            for conn in wait([self.conns[w] for w in busy]):
                worker = self.conns.index(conn)
                try:
                    batch = conn.recv()
                except (EOFError, OSError):
                    raise RuntimeError("a breaklint worker process died") from None
                for index, pair in zip(busy.pop(worker), batch):
                    done[index] = pair
                send(worker)
                if progress:
                    progress.advance(len(batch))
            while following in done:
                yield done.pop(following)
                following += 1
        self.clean = True

    def close(self) -> None:
        for conn, proc in zip(self.conns, self.procs):
            if self.clean:
                try:
                    conn.send(None)
                except OSError:
                    pass
            conn.close()
            if not self.clean:
                proc.terminate()
        for proc in self.procs:
            proc.join(timeout=30)
            if proc.is_alive():  # pragma: no cover - a worker that ignored the end of its pipe
                proc.terminate()
                proc.join()


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _summary(outcome: FileOutcome):
    """An outcome's summary, decoded if it came from the cache; None when the cached text is damaged."""
    try:
        return load_summary(outcome.summary)
    except CacheFormatError:
        return None


def _summaries(outcomes: dict, workers: "_Workers") -> dict:
    """Every file's call-graph summary, decoded from the cache where it came from there; a file
    whose cached summary does not decode is linted again (and its outcome replaced)."""
    summaries, damaged = {}, []
    for path, outcome in outcomes.items():
        if outcome.summary is None:
            continue
        summary = _summary(outcome)
        if summary is None:
            damaged.append((path, None))
        else:
            summaries[path] = summary
    for path, outcome in workers.run(damaged, None):
        outcomes[path] = outcome
        if outcome.summary is not None:
            summaries[path] = outcome.summary
    # In path order, not in the order files came back (cache hits first, then workers): the graph
    # walks summaries in this order, and the "called from" chain it reports must not depend on -j,
    # on the cache, or on which file was edited.
    return {path: summaries[path] for path in sorted(summaries)}


def _served(cache: ResultCache, variant_keys: dict, outcomes: dict) -> Optional[dict]:
    """Each file's lint under an unchanged tree's stored graph answer, all from the cache; None when
    one is missing (a damaged entry, or one evicted): the graph is then built again."""
    served = {}
    for path, key in variant_keys.items():
        hit = cache.lookup(path, variant=key) if path in outcomes else None
        if hit is None:
            return None
        served[path] = hit
    return served


def _tree_key(cache: ResultCache, files: list[str]) -> Optional[str]:
    """The digest of every file's content, or None when one has none (it could not be read)."""
    digest = hashlib.blake2b(digest_size=16)
    for path in files:
        content = cache.digest(path)
        if content is None:
            return None
        digest.update(f"{path}\0{content}\n".encode())
    return digest.hexdigest()


def _merged(first, again):
    """The first pass's summary with the call facts a second lint (with external scopes) learned;
    its own scopes stay those the file traces by itself."""
    if again is None:
        return first
    return dataclasses.replace(first, calls=again.calls, spans=again.spans, returns_tensor=again.returns_tensor,
                               returns_tensors=again.returns_tensors, returns_sparse=again.returns_sparse,
                               object_calls=again.object_calls,
                               breaking=again.breaking, sure_calls=again.sure_calls, skipped=again.skipped,
                               builds=again.builds)


def _learned(summary) -> tuple:
    """What a lint with more context can teach the graph: call facts, and what breaks (project_breaks.py)."""
    return (summary.calls, summary.returns_tensor, summary.returns_tensors, summary.returns_sparse, summary.object_calls,
            summary.breaking, summary.sure_calls, summary.skipped)


def _external_key(context) -> str:
    """A stable digest of what the rest of the tree tells a file (its cache variant)."""
    return hashlib.blake2b(repr(context.key()).encode(), digest_size=12).hexdigest()


@dataclass
class FixReport:
    applied: int = 0
    # path -> the fixes applied to it, for --show-fixes
    fixed: dict[str, list] = field(default_factory=dict)
    # Each file's patch in its own encoding.
    diffs: list[bytes] = field(default_factory=list)


def fix_paths(result: CheckResult, settings: Settings, unsafe: bool, write: bool,
              sink: Optional[Callable[[str, str, str], None]] = None) -> FixReport:
    """Apply the wanted fixes of every file that has one (write=False: only compute the diffs).
    `result.findings` becomes what is left; a file whose fix fails is left untouched and reported.
    `sink(path, fixed_text, encoding)`, when given, receives each fixed text instead of the file
    being written over (confirm writes it into its shadow copy). Without one, edits.write_fixed
    writes the file: a symlink's target, keeping inode, owner and mode, never a read-only file.
    Options added later are keyword-only."""
    from ..sources import read_source_with_encoding
    from ..fix.edits import FixOutcome, unified_diff_bytes, wanted, write_fixed
    from . import notebook
    from .fixloop import fix_source

    report = FixReport()
    local = lint_settings(settings)
    by_file: dict[str, list] = {}
    for finding in result.findings:
        by_file.setdefault(finding.path, []).append(finding)
    kept = []
    for path, findings in by_file.items():
        if not any(wanted(f.fix, unsafe) for f in findings):
            kept.extend(findings)
            continue
        book = None
        try:
            if notebook.is_notebook(path):
                with open(path, encoding="utf-8") as handle:
                    raw = handle.read()
                book = notebook.load(raw)
                source, encoding = book.text, "utf-8"
            else:
                source, encoding = read_source_with_encoding(path)
        except (OSError, ValueError) as exc:
            result.errors.append(FileError(path, f"cannot read for fixing: {exc}"))
            kept.extend(findings)
            continue
        file_settings = local
        if settings.per_file_ignores:
            # Rules ignored for this file must not fix it either: leave them out of the fix loop.
            ignored = matching_ignores(path, settings.per_file_ignores, settings.root)
            file_settings = dataclasses.replace(local, rules=[r for r in local.rules if not is_ignored(r.code, ignored)])
        try:
            try:
                # The check's findings are this text's first round: the fix loop need not lint it again.
                # Only those of the rules this file's fix runs with: settings may switch rules off per
                # file (confirm's culprit search does). A notebook's findings are in cell rows: its
                # loop lints the joined text itself.
                codes = {rule.code for rule in file_settings.rules}
                seed = None if book else [f for f in findings if f.code in codes]
                outcome = fix_source(source, path, file_settings, unsafe=unsafe,
                                     context=result.external.get(path), findings=seed)
            except RecursionError:
                outcome = deep_call(fix_source, source, path, file_settings, unsafe=unsafe,
                                    context=result.external.get(path))
        except Exception as exc:  # noqa: BLE001 - a rule bug must not end the run
            result.errors.append(FileError(path, f"internal error while fixing ({type(exc).__name__}: {exc}); "
                                                 "file left unchanged", internal=True))
            kept.extend(findings)
            continue
        if book is not None:
            outcome.remaining = notebook.to_cells(book, outcome.remaining)
            if outcome.changed:
                fixed_json = notebook.write_back(book, outcome.source)
                if fixed_json is None:
                    outcome = FixOutcome(source=source, error="a fix moved a notebook cell boundary; left unchanged",
                                         remaining=findings)
                else:
                    source, outcome.source = raw, fixed_json
        if outcome.error:
            result.errors.append(FileError(path, outcome.error))
        remaining = outcome.remaining
        if not outcome.changed:
            kept.extend(remaining)
            continue
        if write or sink is not None:
            try:
                (sink or write_fixed)(path, outcome.source, encoding)
            except (OSError, UnicodeEncodeError) as exc:
                result.errors.append(FileError(path, f"cannot write the fixed file ({exc}); left unchanged"))
                kept.extend(findings)
                continue
        else:
            report.diffs.append(unified_diff_bytes(path, source, outcome.source, encoding))
        kept.extend(remaining)
        report.applied += outcome.applied
        report.fixed[path] = outcome.fixes
    result.findings = sorted(kept, key=lambda f: f.sort_key())
    return report


def traced_scopes(paths: list[str], settings: Settings, result: CheckResult) -> list[dict]:
    """`check --show-scope`: every function that a run treats as traced, each with why, after the
    cross-file call graph of `result` (its external contexts) has been applied. A def nested in a
    traced function is listed too: its body is linted as part of the enclosing scope."""
    import ast

    from ..analysis.names import ImportMap
    from ..analysis.scope import ModuleScopes
    from ..sources import read_source

    files, _missing = discover(paths, settings.exclude + settings.extend_exclude, settings.root)
    scope_settings = lint_settings(settings).scope
    rows: list[dict] = []
    for path in files:
        try:
            source = read_source(path)
            tree = ast.parse(source, filename=path)
        except (OSError, ValueError, SyntaxError, RecursionError):
            continue  # check reported it already
        context = result.external.get(path)
        scopes = ModuleScopes(tree, ImportMap(tree), scope_settings, context.entries if context else {},
                              may_compile="compile" in source)
        for qualname, scope in scopes.scopes.items():
            rows.append({"file": os.path.abspath(path), "qualname": qualname, "line": scope.func.lineno,
                         "reason": _scope_reason(scope)})
            for nested, prefix in _nested_defs(scope.func, qualname):
                rows.append({"file": os.path.abspath(path), "qualname": prefix, "line": nested.lineno,
                             "reason": f"defined inside traced {qualname}"})
    rows.sort(key=lambda row: (row["file"], row["line"]))
    return rows


def _scope_reason(scope) -> str:
    if getattr(scope, "reason", ""):  # what the scope search recorded (why a class is a module, ...)
        return scope.reason
    chain = list(scope.chain)
    if chain and chain[-1] == scope.qualname:
        chain = chain[:-1]
    if chain:
        return "called from " + " -> ".join(chain)
    name = scope.qualname.rsplit(".", 1)[-1]
    if scope.cls is not None and scope.cls.is_module and name in ("forward", "__call__"):
        return f"{name} of an nn.Module subclass"
    return "under torch.compile (decorator or call)"


def _nested_defs(func, qualname: str):
    """Defs inside a function's body (not inside nested classes), with their qualnames."""
    import ast

    stack = [(child, qualname) for child in func.body]
    while stack:
        node, owner = stack.pop()
        if isinstance(node, ast.ClassDef):
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            name = f"{owner}.<locals>.{node.name}"
            yield node, name
            stack.extend((child, name) for child in node.body)
            continue
        stack.extend((child, owner) for child in ast.iter_child_nodes(node))
