"""The command line: click commands and nothing else."""
from __future__ import annotations

import os
import sys
import time
from typing import TYPE_CHECKING, Optional

import click
from rich.console import Console

from . import __version__
from .lint.config import ConfigError, load_settings, target_note, with_overrides

if TYPE_CHECKING:
    from pathlib import Path

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _codes(values: tuple[str, ...]) -> list[str]:
    """--select A,B --select C -> [A, B, C]"""
    return [code.strip() for value in values for code in value.split(",") if code.strip()]


def fail(message: str) -> None:
    click.echo(f"breaklint: error: {message}", err=True)
    sys.exit(EXIT_ERROR)


class _Commands(click.Group):
    """`confirm` and `calibrate` live with the dynamic half: their module (and its imports) is loaded
    when one of them is named or the commands are listed, not for every `check`."""

    DYNAMIC = ("confirm", "calibrate")

    def list_commands(self, ctx):
        _register_dynamic_commands()
        return super().list_commands(ctx)

    def get_command(self, ctx, name):
        if name in self.DYNAMIC:
            _register_dynamic_commands()
        return super().get_command(ctx, name)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="breaklint")
def main() -> None:
    """Find and fix torch.compile graph breaks."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--select", multiple=True, help="Rule codes or prefixes to enable (replaces the config's).")
@click.option("--ignore", multiple=True, help="Rule codes or prefixes to disable.")
@click.option("--extend-select", multiple=True, help="Rule codes or prefixes to enable on top of the selection.")
@click.option("--fix", is_flag=True, help="Apply safe fixes in place.")
@click.option("--unsafe-fixes", is_flag=True, help="Also apply (or, with --diff, show) unsafe fixes.")
@click.option("--diff", is_flag=True, help="Print the fixes as a unified diff; write nothing.")
@click.option("--show-fixes", is_flag=True, help="List the fixes applied (with --fix) or available.")
@click.option("--output-format", type=click.Choice(["text", "json", "sarif", "github"]), default="text",
              show_default=True)
@click.option("--statistics", is_flag=True, help="Count findings per rule instead of listing them.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings remain.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None, help="Processes (default: all cores).")
@click.option("--no-cache", is_flag=True, help="Ignore and do not write the results cache.")
@click.option("-q", "--quiet", is_flag=True, help="Print findings only: no summary, no progress bar.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), default=None,
              help="Read settings from this pyproject.toml instead of the nearest one.")
@click.option("--target-torch", default=None, help="The torch version to judge patterns against (e.g. 2.13).")
@click.option("--show-scope", is_flag=True,
              help="List the functions treated as traced, each with the reason, instead of the findings "
                   "(json: a list of {file, qualname, line, reason}); exits 0.")
@click.option("--project-context/--no-project-context", default=True, show_default=True,
              help="When given only files: build the call graph from the whole project (the configuration's "
                   "folder, else the repository root) and report findings in those files.")
@click.option("--stdin-filename", default=None,
              help="With PATH `-`: the file name the text on stdin stands for (settings, messages).")
def check(paths, select, ignore, extend_select, fix, unsafe_fixes, diff, show_fixes, output_format, statistics,
          exit_zero, jobs, no_cache, quiet, config_file, target_torch, show_scope, project_context,
          stdin_filename) -> None:
    """Lint PATHS (default: the current folder) for graph-break hazards. `-` reads stdin."""
    from .report import text as text_report
    from .lint.runner import check_paths, fix_paths, project_root_for

    paths = list(paths) or ["."]
    from_stdin = paths == ["-"]
    if "-" in paths and not from_stdin:
        fail("`-` (stdin) cannot be combined with other paths")
    try:
        settings = load_settings(stdin_filename or "." if from_stdin else paths[0], config_file)
        settings = with_overrides(settings, _codes(select), _codes(ignore), _codes(extend_select), target_torch)
        settings.enabled_rules()
    except ConfigError as exc:
        fail(str(exc))
    note = target_note(settings.torch_version())
    if note and not quiet:
        click.echo(f"breaklint: note: {note}", err=True)
    if from_stdin:
        _check_stdin(settings, stdin_filename or "-", fix, unsafe_fixes, diff, output_format, exit_zero, quiet,
                     show_fixes, statistics)
    console = Console(highlight=False, soft_wrap=True)
    progress = Progress(enabled=output_format == "text" and not quiet, is_terminal=Console(stderr=True).is_terminal)
    try:
        # pre-commit passes the changed files alone: their callers elsewhere in the project still count.
        only_files = all(os.path.isfile(p) for p in paths)
        root = project_root_for(paths, settings) if project_context and only_files else None
        result = check_paths(paths, settings, jobs=jobs, use_cache=not no_cache, on_progress=progress.update,
                             project_root=root)
    finally:
        progress.stop()

    if show_scope:
        _show_scope(paths, settings, result, output_format)
        sys.exit(EXIT_ERROR if _internal(result) else EXIT_CLEAN)

    fixes = None
    if fix or diff:
        fixes = fix_paths(result, settings, unsafe=unsafe_fixes, write=not diff)

    if diff:
        # Like ruff: the diff is the output; exit 1 when there is something to apply.
        sys.stdout.flush()
        out = sys.stdout.buffer
        out.write(b"".join(fixes.diffs))  # bytes: each file's diff in its own encoding
        out.flush()
        _errors_to_stderr(result)
        if not quiet:
            click.echo(f"Would fix {fixes.applied} {_plural(fixes.applied, 'problem')} "
                       f"in {len(fixes.diffs)} {_plural(len(fixes.diffs), 'file')}.", err=True)
        sys.exit(EXIT_ERROR if _internal(result) else
                 EXIT_FINDINGS if fixes.diffs and not exit_zero else EXIT_CLEAN)

    applied = fixes.applied if fixes else 0
    if output_format == "text":
        text_report.render(result, console, show_fixes=show_fixes, statistics=statistics, applied=applied,
                           quiet=quiet, fixed=fixes.fixed if fixes else None)
    else:
        from .report import github, json_format, sarif

        if statistics and output_format == "json":
            click.echo(json_format.render_statistics(result))
        else:
            renderer = {"json": json_format, "sarif": sarif, "github": github}[output_format]
            rendered = renderer.render(result)
            if rendered:
                click.echo(rendered)
        if output_format != "github":  # github annotations already carry the errors
            _errors_to_stderr(result)
    if _internal(result):
        sys.exit(EXIT_ERROR)
    failed = bool(result.findings or result.errors)
    sys.exit(EXIT_FINDINGS if failed and not exit_zero else EXIT_CLEAN)


def _show_scope(paths, settings, result, output_format: str) -> None:
    from .lint.runner import traced_scopes

    rows = traced_scopes(paths, settings, result)
    if output_format == "json":
        import json

        click.echo(json.dumps(rows, indent=2))
    else:
        for row in rows:
            click.echo(f"{os.path.relpath(row['file'])}:{row['line']}: {row['qualname']} ({row['reason']})")
    _errors_to_stderr(result)


def _check_stdin(settings, filename: str, fix: bool, unsafe: bool, diff: bool, output_format: str,
                 exit_zero: bool, quiet: bool, show_fixes: bool, statistics: bool) -> None:
    """`check -` for editors, as ruff does it: lint stdin as `filename`; with --fix, print the fixed
    text on stdout and the findings left on stderr; with --diff, print the diff. Nothing is written."""
    from .fix.edits import unified_diff
    from .lint.fixloop import fix_source
    from .lint.runner import check_source, lint_settings
    from .report import text as text_report

    source = sys.stdin.read()
    result = check_source(source, filename, settings)
    if (fix or diff) and not result.errors:
        outcome = fix_source(source, filename, lint_settings(settings), unsafe=unsafe, findings=result.findings)
        if outcome.error:
            click.echo(f"{filename}: error: {outcome.error}", err=True)
        result.findings = outcome.remaining
        if diff:
            sys.stdout.flush()
            sys.stdout.write(unified_diff(filename, source, outcome.source) if outcome.changed else "")
            sys.exit(EXIT_FINDINGS if outcome.changed and not exit_zero else EXIT_CLEAN)
        sys.stdout.write(outcome.source)  # the editor replaces its buffer with this
        sys.stdout.flush()
        text_report.render(result, Console(stderr=True, highlight=False, soft_wrap=True), quiet=quiet,
                           applied=outcome.applied, show_fixes=show_fixes, statistics=statistics)
    elif output_format == "text":
        text_report.render(result, Console(highlight=False, soft_wrap=True), quiet=quiet, show_fixes=show_fixes,
                           statistics=statistics)
    else:
        from .report import github, json_format, sarif

        renderer = {"json": json_format, "sarif": sarif, "github": github}[output_format]
        rendered = renderer.render(result)
        if rendered:
            click.echo(rendered)
        _errors_to_stderr(result)
    failed = bool(result.findings or result.errors)
    sys.exit(EXIT_FINDINGS if failed and not exit_zero else EXIT_CLEAN)


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


def _internal(result) -> bool:
    return any(error.internal for error in result.errors)


def _errors_to_stderr(result) -> None:
    for error in result.errors:
        click.echo(f"{os.path.relpath(error.path)}: error: {error.message}", err=True)


class Progress:
    """A rich progress bar on stderr that appears only on a terminal, only once linting has taken
    more than DELAY seconds, and only while files are left (a fast or cached run shows nothing)."""

    DELAY = 0.4

    def __init__(self, enabled: bool, is_terminal: bool, clock=time.monotonic):
        self.enabled = enabled and is_terminal
        self.clock = clock
        self.started = clock()
        self.bar = None
        self.task = None

    def should_show(self, done: int, total: int) -> bool:
        return (self.enabled and total > 0 and done < total
                and self.clock() - self.started >= self.DELAY)

    def update(self, done: int, total: int) -> None:
        if self.bar is None:
            if not self.should_show(done, total):
                return
            self.bar = self._make_bar()
            self.bar.start()
            self.task = self.bar.add_task("lint", total=total)
        self.bar.update(self.task, completed=done, total=total)

    def _make_bar(self):
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
        from rich.progress import Progress as RichProgress

        return RichProgress(TextColumn("linting"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            console=Console(stderr=True), transient=True)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


@main.command(name="rules")
@click.option("--target-torch", default=None, help="Show verdicts for this torch version.")
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text")
def list_rules(target_torch: Optional[str], output_format: str) -> None:
    """List every rule with its fix availability and whether it breaks on the target torch."""
    from .rules import all_rules

    try:
        settings = with_overrides(load_settings("."), target_torch=target_torch)
    except ConfigError as exc:
        fail(str(exc))
    version = settings.torch_version()
    rows = []
    for rule in all_rules():
        verdict = rule.breaks_on(version)
        rows.append({"code": rule.code, "name": rule.name, "fix": rule.fix_applicability or "none",
                     "fix_availability": rule.fix_availability,
                     "breaks": rule.verdict_word(verdict), "verdict_kind": rule.verdict_kind,
                     "gb_ids": list(rule.gb_ids), "summary": rule.summary})
    if output_format == "json":
        import json

        click.echo(json.dumps({"torch": version, "rules": rows}, indent=2))
        return
    from .report.table import format_table, terminal_width

    click.echo(format_table(("code", "name", "fix", f"torch {version}", "GB ids"),
                            [(r["code"], r["name"], r["fix"], r["breaks"], " ".join(r["gb_ids"]) or "-") for r in rows],
                            width=terminal_width()))


def rule_page_path(code: str) -> Optional[Path]:
    """A rule's page: shipped inside the package, or in the checkout's rules/ folder."""
    from pathlib import Path

    here = Path(__file__).resolve().parent
    for folder in (here / "pages", here.parents[1] / "rules"):
        page = folder / f"{code.upper()}.md"
        if page.is_file():
            return page
    return None


@main.command(name="rule")
@click.argument("code")
def show_rule(code: str) -> None:
    """Print the page of one rule (what it does, why it breaks, examples, fix safety)."""
    from .rules import rule_by_code

    rule = rule_by_code(code)
    if rule is None:
        fail(f"unknown rule code '{code}' (see `breaklint rules`)")
    page = rule_page_path(rule.code)
    if page is None:
        fail(f"no page found for {rule.code}")
    click.echo(page.read_text(encoding="utf-8"))


def _register_dynamic_commands() -> None:
    """`confirm` and `calibrate` live with the dynamic half; their modules import torch lazily."""
    if all(name in main.commands for name in _Commands.DYNAMIC):
        return
    try:
        from .confirm.cli import calibrate, confirm
    except ImportError:
        return
    main.add_command(confirm)
    main.add_command(calibrate)
