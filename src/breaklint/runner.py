"""Lint many files: cache lookups, then the rest in a process pool, in chunks."""
from __future__ import annotations

import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Optional

from .cache import ResultCache
from .config import Settings
from .engine import LintSettings, lint_file
from .files import discover, matching_ignores
from .model import CheckResult, FileError
from .scope import ScopeSettings

# Below this many files a pool costs more than it saves.
PARALLEL_THRESHOLD = 16
CHUNK = 8

_worker_settings: Optional[LintSettings] = None


def lint_settings(settings: Settings) -> LintSettings:
    return LintSettings(
        rules=[rule() for rule in settings.enabled_rules()],
        scope=ScopeSettings(extra_decorators=tuple(settings.compile_decorators),
                            extra_base_classes=tuple(settings.module_base_classes)),
    )


def _init_worker(settings: Settings) -> None:
    global _worker_settings
    _worker_settings = lint_settings(settings)


def _lint_chunk(paths: list[str]):
    return [(path, lint_file(path, _worker_settings)) for path in paths]


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def check_paths(paths: list[str], settings: Optional[Settings] = None, jobs: Optional[int] = None,
                use_cache: bool = True, on_progress: Optional[Callable[[int, int], None]] = None) -> CheckResult:
    settings = settings or Settings()
    files, missing = discover(paths, settings.exclude + settings.extend_exclude, settings.root)
    result = CheckResult(errors=[FileError(os.path.abspath(p), "no such file or directory") for p in missing])
    cache = ResultCache(settings.root, settings.fingerprint()) if use_cache else None
    outcomes: dict[str, tuple] = {}
    todo = []
    for path in files:
        hit = cache.lookup(path) if cache else None
        if hit is not None:
            outcomes[path] = (hit[0], None, hit[1], hit[2])
        else:
            todo.append(path)
    done = len(outcomes)
    if on_progress:
        on_progress(done, len(files))
    jobs = jobs or default_jobs()
    if jobs > 1 and len(todo) >= PARALLEL_THRESHOLD:
        context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
        chunks = [todo[i:i + CHUNK] for i in range(0, len(todo), CHUNK)]
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_init_worker,
                                 initargs=(settings,)) as pool:
            for batch in pool.map(_lint_chunk, chunks):
                for path, outcome in batch:
                    outcomes[path] = outcome
                done += len(batch)
                if on_progress:
                    on_progress(done, len(files))
    else:
        local = lint_settings(settings)
        for path in todo:
            outcomes[path] = lint_file(path, local)
            done += 1
            if on_progress:
                on_progress(done, len(files))
    for path in files:
        findings, error, lines, suppressed = outcomes[path]
        if cache is not None and error is None and path in todo:
            cache.store(path, (findings, lines, suppressed))
        if error is not None:
            result.errors.append(error)
            continue
        ignored = matching_ignores(path, settings.per_file_ignores, settings.root) if settings.per_file_ignores else ()
        result.findings.extend(f for f in findings if f.code not in ignored)
        result.files_checked += 1
        result.lines_checked += lines
        result.suppressed += suppressed
    if cache is not None:
        cache.save()
    result.findings.sort(key=lambda f: f.sort_key())
    return result
