"""BL202: logging calls in traced code: `logger.info(...)`, `logging.warning(...)`,
`self.logger.debug(...)`, transformers' `logger.warning_once(...)`."""
from __future__ import annotations

import ast
import re
from typing import Optional

from ..analysis.names import dotted
from ..fix.rewrite import report_with_guard
from .base import Example, Rule

LOGGER_METHODS = {"debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log",
                  "warning_once", "info_once"}
# Functions of the `logging` module that log (not getLogger, basicConfig...).
MODULE_FUNCTIONS = {"debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log"}
LOGGER_NAME = re.compile(r"^_*(logger|log|LOGGER|LOG|Logger)$")
# Factories whose result is a logging.Logger: logging.getLogger, transformers' / diffusers' get_logger.
LOGGER_FACTORY = re.compile(r"(^|\.)(getLogger|get_logger)$")


def logger_classes(tree: ast.Module, imports) -> set[str]:
    """`logging.Logger` and this file's subclasses of it, at any depth."""
    found = {"logging.Logger", "logging.RootLogger", "logging.LoggerAdapter"}
    classes = [n for n in _statements(tree.body) if isinstance(n, ast.ClassDef)]
    changed = True
    while changed:
        changed = False
        for cls in classes:
            if cls.name not in found and any((imports.qualify(b) or "") in found for b in cls.bases):
                found.add(cls.name)
                changed = True
    return found


def logger_bindings(tree: ast.Module, imports, classes: Optional[set[str]] = None) -> set[str]:
    """Dotted names (`logger`, `self.log`, `_LOG`) that hold a logger in this file: assigned from a
    logger factory (any function named get_logger / getLogger) or a Logger (subclass) call, or
    annotated as a Logger."""
    classes = classes if classes is not None else logger_classes(tree, imports)
    bound: set[str] = set()
    for node in _statements(tree.body, with_arguments=True):
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign):
            targets, value = [node.target], node.value
            if (imports.qualify(node.annotation) or "") in classes:
                value = None
                name = dotted(node.target)
                if name:
                    bound.add(name)
        elif isinstance(node, ast.arg) and node.annotation is not None:
            if (imports.qualify(node.annotation) or "") in classes:
                bound.add(node.arg)
            continue
        else:
            continue
        if not (isinstance(value, ast.Call) and _makes_logger(value, imports, classes)):
            continue
        for target in targets:
            name = dotted(target)
            if name:
                bound.add(name)
    return bound


def _statements(body, with_arguments: bool = False):
    """Statements at any depth (and, when asked, the parameters of functions), without walking
    into expressions: walking every node of a large file costs more than parsing it."""
    stack = list(body)
    while stack:
        node = stack.pop()
        yield node
        if with_arguments and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            yield from args.posonlyargs + args.args + args.kwonlyargs
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            children = getattr(node, field, None)
            if children:
                stack.extend(children)


def _logger_facts(file) -> tuple[set[str], set[str]]:
    # Every logger is made by getLogger / get_logger / a Logger class: a file that never says
    # "ogger" binds none, and is not walked.
    if "ogger" not in file.source:
        return set(), set()
    classes = logger_classes(file.tree, file.imports)
    return logger_bindings(file.tree, file.imports, classes), classes


def _makes_logger(call: ast.Call, imports, classes: set[str]) -> bool:
    name = imports.qualify(call.func) or ""
    return bool(LOGGER_FACTORY.search(name)) or name in classes


def _last_name(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


class LoggingCall(Rule):
    code = "BL202"
    name = "logging-call"
    summary = "logging calls (logger.info, logging.warning, logger.warning_once) break the graph"
    # Logger methods: GB0291. Module-level logging.*(): GB4841 ("Unsupported python_type() call").
    gb_ids = ("GB0291", "GB4841")
    fix_availability = "sometimes"
    fix_applicability = "safe"
    node_types = (ast.Call,)
    # 2.13: measured on CPU, including logger.debug on a logger whose level disables it (it still
    # breaks: Dynamo does not look at the level). 2.11 and 2.15: from the team catalogue (outside this repository).
    verdicts = {"2.11": True, "2.13": True, "2.15": True}

    def check(self, node: ast.Call, ctx) -> None:
        func = node.func
        if isinstance(func, ast.Name):  # from logging import warning
            qual = ctx.qualify(func) or ""
            method = qual.rpartition(".")[2]
            if qual != f"logging.{method}" or method not in MODULE_FUNCTIONS:
                return
        elif isinstance(func, ast.Attribute):
            method = func.attr
            if not self._is_logging(method, func.value, node, ctx):
                return
        else:
            return
        report_with_guard(ctx, node, f"logging call .{method}() breaks the graph; guard it with "
                          "`if not torch.compiler.is_compiling():` or move it out of compiled code",
                          "the log call")

    def _is_logging(self, method: str, receiver: ast.AST, node: ast.Call, ctx) -> bool:
        """Any method of a logger breaks the graph (measured on 2.13: the level methods and a
        Logger subclass's own methods too), so a logger is recognised by what it is."""
        if ctx.qualify(receiver) == "logging":
            return method in MODULE_FUNCTIONS
        if method.startswith("__"):
            return False
        if isinstance(receiver, ast.Call):  # logging.getLogger(__name__).info(...)
            maker = ctx.qualify(receiver.func) or ""
            return bool(LOGGER_FACTORY.search(maker)) or maker in self._classes(ctx)
        name = dotted(receiver)
        if name is None:
            return False
        # The tensor test last: it is the costly one, and most receivers are settled by their name.
        if name in self._logger_names(ctx):
            return not ctx.is_tensor(receiver)
        # A logger's usual name (`logger`, `self.log`, imported `LOG`): only its logging methods,
        # since the name alone does not say what it holds.
        if not LOGGER_NAME.match(_last_name(receiver) or ""):
            return False
        if method not in LOGGER_METHODS and not method.endswith("_once"):
            return False
        if method == "log" and len(node.args) + len(node.keywords) < 2:
            return False  # Logger.log(level, msg); a one-argument .log() is math, not logging
        return not ctx.is_tensor(receiver)

    def _classes(self, ctx) -> set[str]:
        return self._logger_facts(ctx)[1]

    def _logger_names(self, ctx) -> set[str]:
        return self._logger_facts(ctx)[0]

    def _logger_facts(self, ctx) -> tuple[set[str], set[str]]:
        """(names bound to loggers, logger classes) of the file, read once per file."""
        return ctx.file.memo("BL202 loggers", lambda: _logger_facts(ctx.file))

    VALID = [
        Example("""
import logging

import torch
from torch import nn

logger = logging.getLogger(__name__)


class Net(nn.Module):
    def forward(self, x):
        if not torch.compiler.is_compiling():
            logger.info("input %s", tuple(x.shape))
        y = x.log()                  # Tensor.log, not logging
        return torch.log(y.exp())


def train_step(model, x):
    logger.info("step")              # outside traced code: fine
    return model(x)


def factory():
    return Net(), (torch.rand(4) + 1,)
"""),
    ]
    INVALID = [
        Example("""
import logging
import torch
from torch import nn


class Events(logging.Logger):
    pass


events = Events("events")


class Net(nn.Module):
    def forward(self, x):
        y = x * 2
        events.setLevel(logging.INFO)  # any method of a logger breaks, not only info()
        return y + 1


def factory():
    return Net(), (torch.randn(4),)
""", fixed="""
import logging
import torch
from torch import nn


class Events(logging.Logger):
    pass


events = Events("events")


class Net(nn.Module):
    def forward(self, x):
        y = x * 2
        if not torch.compiler.is_compiling():
            events.setLevel(logging.INFO)  # any method of a logger breaks, not only info()
        return y + 1


def factory():
    return Net(), (torch.randn(4),)
""", at=((17, 9),)),
        Example("""
import logging

import torch
from torch import nn

logger = logging.getLogger(__name__)


class Net(nn.Module):
    def forward(self, x):
        y = x * 2
        logger.debug("y %s", tuple(y.shape))  # level off: still a break
        return y + 1


def factory():
    return Net(), (torch.randn(4),)
""", fixed="""
import logging

import torch
from torch import nn

logger = logging.getLogger(__name__)


class Net(nn.Module):
    def forward(self, x):
        y = x * 2
        if not torch.compiler.is_compiling():
            logger.debug("y %s", tuple(y.shape))  # level off: still a break
        return y + 1


def factory():
    return Net(), (torch.randn(4),)
""", at=((13, 9),)),
        Example("""
import logging

import torch


@torch.compile
def step(x):
    y = x.relu()
    logging.warning(
        "root logger: %d items", y.numel()
    )
    return y * 2


def factory():
    return step, (torch.randn(4),)
""", fixed="""
import logging

import torch


@torch.compile
def step(x):
    y = x.relu()
    if not torch.compiler.is_compiling():
        logging.warning(
            "root logger: %d items", y.numel()
        )
    return y * 2


def factory():
    return step, (torch.randn(4),)
""", at=((10, 5),)),
        Example("""
import logging

import torch
from torch import nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.events = logging.getLogger("block")
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        h = self.proj(x)
        self.events.info("projected")
        return h.relu()


def factory():
    return Block(), (torch.randn(2, 4),)
""", fixed="""
import logging

import torch
from torch import nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.events = logging.getLogger("block")
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        h = self.proj(x)
        if not torch.compiler.is_compiling():
            self.events.info("projected")
        return h.relu()


def factory():
    return Block(), (torch.randn(2, 4),)
""", at=((16, 9),)),
    ]
