"""BL604: compiled code reads a Python int attribute of its nn.Module that code outside the compiled
region changes between calls: a counter advanced in another method (`def advance(self): self.step
+= 1`), or a setter (`def set_step(self, step): self.step = step`) that a loop in the same file calls,
or a loop that writes the attribute itself (`for i, x in ...: model.step = i`).

Measured on torch 2.13 CPU, 12 calls, a new value before each (bench/recompile_probe.py,
`outside_*`): Dynamo treats int attributes of an nn.Module as constants
(`allow_unspec_int_on_nn_module` is False by default) and guards on their value, so forward
compiles again for every new value, however it reads it: in arithmetic, in an `if` whose side never
changes (`if self.step > 1000`), as a size (`torch.arange(self.step)`), in a slice or into
`torch.tensor`: 8 compiles under the counting backend and aot_eager, then `recompile_limit`, then
eager. An int that only alternates between two values compiles twice; one that forward never reads,
once; with `allow_unspec_int_on_nn_module=True`, 2 (arithmetic) or 3 (an `if`). A float attribute
changed the same way compiles 2-3 times unless it becomes tensor data, so floats are not flagged.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..analysis.astwalk import walk
from .base import Example, Rule
from .bl601_number_state_in_compiled_code import kept_self, number_literal, self_attr, self_param, visible_hierarchy

LOOPS = (ast.For, ast.AsyncFor, ast.While)
_LOOP_TYPES = frozenset(LOOPS)


def _writers(cls, traced: set[str]) -> dict[str, list[tuple[str, str, ast.AST]]]:
    """attribute -> (kind, method, statement) for each write of `self.attr` in a method that is not
    traced and is not __init__: "counter" (`self.x += k`, `self.x = self.x + k`) or "setter"
    (`self.x = <a value read from the method's parameters>`)."""
    found: dict[str, list[tuple[str, str, ast.AST]]] = {}
    for name, method in cls.methods.items():
        if name == "__init__" or f"{cls.name}.{name}" in traced:
            continue
        self_name = self_param(method)
        if self_name is None:
            continue
        params = {a.arg for a in method.args.posonlyargs + method.args.args + method.args.kwonlyargs} - {self_name}
        for stmt in ast.walk(method):
            if isinstance(stmt, ast.AugAssign):
                attr = self_attr(stmt.target, self_name)
                if attr is not None and isinstance(stmt.op, (ast.Add, ast.Sub)) \
                        and number_literal(stmt.value, (int,)) is not None:
                    found.setdefault(attr, []).append(("counter", name, stmt))
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                attr = self_attr(stmt.targets[0], self_name)
                if attr is None:
                    continue
                value = stmt.value
                if isinstance(value, ast.BinOp) and isinstance(value.op, (ast.Add, ast.Sub)) \
                        and self_attr(value.left, self_name) == attr and number_literal(value.right, (int,)) is not None:
                    found.setdefault(attr, []).append(("counter", name, stmt))
                elif isinstance(value, ast.Name) and value.id in params or \
                        isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "int" \
                        and len(value.args) == 1 and isinstance(value.args[0], ast.Name) and value.args[0].id in params:
                    found.setdefault(attr, []).append(("setter", name, stmt))
    return found


def _loop_drives(file, method: Optional[str], attr: str) -> bool:
    """A for/while loop of this file that calls `obj.method(...)` or assigns `obj.attr = ...` and
    also calls `obj(...)`: the value changes between calls, as a training or sampling loop does. A
    loop that only sets the attribute (`for i, block in enumerate(blocks): block.idx = i`, at
    construction) gives each module one value, which never recompiles."""
    for called, receivers_of_method, assigned_attr in file.memo("BL604 loops", lambda: _loops(file.tree)):
        changed = set(receivers_of_method.get(method, ())) if method else set()
        changed |= assigned_attr.get(attr, set())
        if (changed - {"self", "cls"}) & called:
            return True
    return False


def _loops(tree: ast.Module) -> list[tuple[set[str], dict[str, set[str]], dict[str, set[str]]]]:
    """For each loop of the file (nested loops are read again inside their outer loop): the names it
    calls, the names it calls each method on, and the names whose attribute it assigns (a value
    that is not a number literal), once per file."""
    # astwalk's walk (no expression contexts) and exact-type tests: the parser makes no subclasses,
    # and this walk over every loop of every file was 3% of a cold check.
    loops = []
    for loop in _loop_statements(tree.body):
        called: set[str] = set()
        by_method: dict[str, set[str]] = {}
        by_attr: dict[str, set[str]] = {}
        for node in walk(loop):
            kind = type(node)
            if kind is ast.Call:
                func = node.func
                if type(func) is ast.Name:
                    called.add(func.id)
                elif type(func) is ast.Attribute and type(func.value) is ast.Name:
                    by_method.setdefault(func.attr, set()).add(func.value.id)
            elif kind is ast.Assign and number_literal(node.value) is None:
                for t in node.targets:
                    if type(t) is ast.Attribute and type(t.value) is ast.Name:
                        by_attr.setdefault(t.attr, set()).add(t.value.id)
        loops.append((called, by_method, by_attr))
    return loops


def _loop_statements(body):
    """The loops at any depth of statements. A loop is a statement, and no expression holds one, so
    the statement lists alone are read, not every node of the file. Their order does not matter:
    _loop_drives asks whether any loop drives the attribute."""
    stack = list(body)
    while stack:
        node = stack.pop()
        if type(node) in _LOOP_TYPES:
            yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            block = getattr(node, field, None)
            if block:
                stack.extend(block)


def _is_self(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


class NumberAttributeChangedBetweenCalls(Rule):
    code = "BL604"
    name = "number-attribute-changed-between-calls"
    summary = "compiled code reads an int attribute that code outside it changes between calls: a recompile per value"
    gb_ids = ()
    fix_availability = "never"
    node_types = (ast.Attribute,)
    verdict_kind = "recompiles"
    # Measured on 2.13 CPU (12 calls; counting backend and aot_eager: 8 compiles, then the limit).
    verdicts = {"2.13": True}

    def check(self, node: ast.Attribute, ctx) -> None:
        cls = ctx.scope.cls
        if cls is None or not cls.is_module or not isinstance(node.ctx, ast.Load):
            return
        self_name = kept_self(ctx)
        attr = self_attr(node, self_name)
        if attr is None:
            return
        hazard = self._hazards(cls, ctx).get(attr)
        if hazard is None:
            return
        reported = ctx.file.memo(("BL604 reported", id(ctx.scope.func)), set)
        if attr in reported:
            return  # once per function: the first read is where Dynamo's guard points
        reported.add(attr)
        kind, method = hazard
        how = (f"advanced by `{method}`" if kind == "counter" else
               f"changed by a loop in this file{f' through `{method}`' if method else ''}")
        ctx.report(node, f"`{self_name}.{attr}` is a Python int attribute of the module, {how} between "
                         f"calls; compiled code guards on its value (nn.Module ints are static), so every new "
                         f"value recompiles; after 8 compiles (recompile_limit) it runs eagerly; keep it in a "
                         f"buffer (`register_buffer(\"{attr}\", torch.zeros((), dtype=torch.long), "
                         f"persistent=False)`, updated in place) or set "
                         f"torch._dynamo.config.allow_unspec_int_on_nn_module = True")

    @staticmethod
    def _hazards(cls, ctx) -> dict[str, tuple[str, Optional[str]]]:
        def compute() -> dict[str, tuple[str, Optional[str]]]:
            hierarchy = visible_hierarchy(cls, ctx)
            if hierarchy is None:
                return {}  # a base from elsewhere may reset or set the attribute
            traced = set(ctx.file.scopes.scopes)
            hazards: dict[str, tuple[str, Optional[str]]] = {}
            writers: dict[str, list] = {}
            for info in hierarchy:
                for attr, found in _writers(info, traced).items():
                    writers.setdefault(attr, []).extend(found)
            for attr, found in writers.items():
                if attr in cls.properties or any(attr in info.assignments.registered for info in hierarchy):
                    continue
                values = [v for info in hierarchy for v, _ in info.assignments.values.get(attr, [])]
                literals = [number_literal(v) for v in values if number_literal(v) is not None]
                if len(literals) != 1 or type(literals[0]) is not int:
                    continue  # not an int, or reset to a literal: a bounded set of values
                if any(f"{info.name}.{name}" in traced for info in hierarchy for name, method in info.methods.items()
                       if any(self_attr(t, self_param(method)) == attr
                              for s in ast.walk(method) if isinstance(s, (ast.Assign, ast.AugAssign))
                              for t in (s.targets if isinstance(s, ast.Assign) else [s.target]))):
                    continue  # also changed inside compiled code: BL601's finding
                counters = [m for kind, m, _ in found if kind == "counter"]
                if counters:
                    hazards[attr] = ("counter", counters[0])
                    continue
                setters = [m for kind, m, _ in found if kind == "setter"]
                driven = [m for m in setters if _loop_drives(ctx.file, m, attr)]
                if driven:
                    hazards[attr] = ("setter", driven[0])
            for attr in {a for info in hierarchy for a in info.assignments.values} - set(hazards) - set(writers):
                values = [v for info in hierarchy for v, _ in info.assignments.values.get(attr, [])]
                if len(values) == 1 and type(number_literal(values[0])) is int \
                        and attr not in cls.properties and _loop_drives(ctx.file, None, attr):
                    hazards[attr] = ("setter", None)
            return hazards

        return ctx.file.memo(("BL604 hazards", id(cls)), compute)

    VALID = [
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.register_buffer("step", torch.zeros((), dtype=torch.long), persistent=False)

    def set_step(self, step):
        self.step.fill_(step)  # a buffer: a tensor input, not a guarded constant

    def forward(self, x):
        return self.lin(x) * self.step


def train(net, batches):
    for i, x in enumerate(batches):
        net.set_step(i)
        net(x)


NET = None


def factory():
    global NET
    NET = Net()
    return NET, (torch.randn(2, 4),)


def inputs(i):
    NET.set_step(i)
    return (torch.randn(2, 4),), {}
""", calls=12),
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.heads = 4

    def set_heads(self, heads):  # configuration, set once: one recompile at most
        self.heads = heads

    def forward(self, x):
        return self.lin(x) * self.heads


def factory():
    net = Net()
    net.set_heads(2)
    return net, (torch.randn(2, 4),)
""", calls=12),
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.step = 0

    def advance(self):
        self.step += 1  # counted, but forward never reads it

    def forward(self, x):
        return self.lin(x)


NET = None


def factory():
    global NET
    NET = Net()
    return NET, (torch.randn(2, 4),)


def inputs(i):
    NET.advance()
    return (torch.randn(2, 4),), {}
""", calls=12),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.step = 0

    def set_step(self, step):
        self.step = step

    def forward(self, x):
        if self.step < 6:
            return self.lin(x)
        return self.lin(x) * 2


def train(net, batches):
    for i, x in enumerate(batches):
        net.set_step(i)
        net(x)


NET = None


def factory():
    global NET
    NET = Net()
    return NET, (torch.randn(2, 4),)


def inputs(i):
    NET.set_step(i)
    return (torch.randn(2, 4),), {}
""", calls=12, at=((16, 12),)),
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.step = 0

    def advance(self):
        self.step += 1

    def forward(self, x):
        return self.lin(x) * self.step


NET = None


def factory():
    global NET
    NET = Net()
    return NET, (torch.randn(2, 4),)


def inputs(i):
    NET.advance()
    return (torch.randn(2, 4),), {}
""", calls=12, at=((16, 30),)),
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.step = 0

    def forward(self, x):
        return self.lin(x).sum() * torch.arange(self.step + 1).float().mean()


def train(net, batches):
    for i, x in enumerate(batches):
        net.step = i
        net(x)


NET = None


def factory():
    global NET
    NET = Net()
    return NET, (torch.randn(2, 4),)


def inputs(i):
    NET.step = i
    return (torch.randn(2, 4),), {}
""", calls=12, at=((13, 49),)),
    ]
