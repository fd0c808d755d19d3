"""BL601: a Python number kept across calls and changed inside compiled code (`self.step += 1`,
`self.decay *= 0.99`, `global N; N += 1`, `STATS["calls"] += 1`).

Measured on torch 2.13 CPU, 12 calls (bench/recompile_probe.py): Dynamo treats int attributes of an
nn.Module, module-level ints and ints in module-level dicts as constants and guards on their values
(`self.step == 3`), so every call fails the guard and compiles again: 8 compiles in 12 calls, then
`recompile_limit` (8) is hit and the frame runs eagerly from then on. A float attribute updated with
an augmented assignment (`self.decay *= 0.99`) does the same under inductor and aot_eager (8);
`self.scale = self.scale * 0.9` compiles 2-3 times under inductor (8 under aot_eager, 2 under eager),
so a float is flagged only for `op=`. Module-level floats are not flagged (not measured).
"""
from __future__ import annotations

import ast
from typing import Optional

from ..analysis.astwalk import walk
from ..fix.rewrite import replace_fix, torch_imports, torch_name, torch_prefix
from ..model import Fix
from .base import Example, Rule

COST = "Dynamo guards on its value, so this recompiles on every call; after 8 compiles (recompile_limit) it runs eagerly"


def number_literal(node: Optional[ast.AST], types=(int, float)):
    """The value of an int (or float) literal, `-1` included; None for anything else (bools too)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = number_literal(node.operand, types)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and type(node.value) in types:
        return node.value
    return None


def int_literal(node: Optional[ast.AST]) -> Optional[int]:
    return number_literal(node, (int,))


def self_param(func: ast.AST) -> Optional[str]:
    args = func.args.posonlyargs + func.args.args
    decorators = {d.id for d in func.decorator_list if isinstance(d, ast.Name)}
    if not args or decorators & {"staticmethod", "classmethod"}:
        return None
    return args[0].arg


def kept_self(ctx) -> Optional[str]:
    """The name of the traced method's self when it is an object kept between calls; None in a
    constructor, whose self is new on every call (a module built in traced code: its __init__ is
    traced, and `self.items.append(x)` there recompiles nothing, measured on 2.13)."""
    scope = ctx.scope
    constructors = ("__init__", "__new__", "__post_init__")
    if scope.cls is None or scope.func.name in constructors:
        return None
    if len(scope.chain) > 1 and scope.chain[-2] in {f"{scope.cls.name}.{name}" for name in constructors}:
        return None  # `self._setup()` from the constructor: the same new self (measured, no recompile)
    return self_param(scope.func)


def self_attr(node: ast.AST, self_name: Optional[str]) -> Optional[str]:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == self_name:
        return node.attr
    return None


def visible_hierarchy(cls, ctx) -> Optional[list]:
    """The class and its same-file bases, when every other base is torch's (nn.Module and friends):
    then no method we cannot see resets the attribute. None when a base is a mixin from elsewhere
    (kornia's TransformMatrixMinIn resets its list in a method of another file)."""
    found, stack = [], [cls]
    while stack:
        info = stack.pop()
        if info in found:
            continue
        found.append(info)
        for base in info.bases:
            local = ctx.file.scopes.classes.get(base)
            if local is not None:
                stack.append(local)
            elif not (base.startswith("torch.nn.") or base in ("object", "torch.nn.Module")):
                return None
    return found


def _reads(value: ast.AST, match) -> bool:
    return any(match(n) for n in ast.walk(value))


class NumberStateInCompiledCode(Rule):
    code = "BL601"
    name = "number-state-in-compiled-code"
    summary = "a Python int/float attribute or global int changed in compiled code recompiles on every call"
    gb_ids = ()
    fix_availability = "sometimes"
    fix_applicability = "unsafe"
    node_types = (ast.AugAssign, ast.Assign)
    verdict_kind = "recompiles"
    # Measured on 2.13 CPU (12 calls, aot_eager: 8 compiles, then the recompile limit). 2.11: an int
    # counter on an H100 (issue #15 and bench/results/cudagraph_probe_h100_torch2.11.json).
    verdicts = {"2.11": True, "2.13": True}

    def check(self, node: ast.AST, ctx) -> None:
        target = node.target if isinstance(node, ast.AugAssign) else (node.targets[0] if len(node.targets) == 1 else None)
        if target is None:
            return
        self_name = kept_self(ctx)
        attr = self_attr(target, self_name)
        if attr is not None:
            self._check_attribute(node, attr, self_name, ctx)
        elif isinstance(target, ast.Name):
            self._check_global(node, target.id, ctx)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            self._check_global_dict(node, target, ctx)

    # -- self.step += 1 ------------------------------------------------------------------------------
    def _check_attribute(self, node, attr: str, self_name: str, ctx) -> None:
        cls = ctx.scope.cls
        if not cls.is_module or attr in cls.assignments.registered:
            return
        if isinstance(node, ast.Assign) and not _reads(node.value, lambda n: self_attr(n, self_name) == attr):
            return  # `self.step = 0`: a reset, not a counter
        hierarchy = visible_hierarchy(cls, ctx)
        if hierarchy is None:
            return
        values = [v for info in hierarchy for v in info.assignments.values.get(attr, [])]
        if sum(1 for v, _ in values if number_literal(v) is not None) > 1:
            return  # reset to a literal somewhere: the counter cycles through a bounded set of values
        literals = [number_literal(v) for v, _ in values if number_literal(v) is not None]
        if not literals:
            return  # never set to a number literal: a tensor or an unknown value
        if any(number_literal(v) is None and not _reads(v, lambda n, s=s: self_attr(n, s) == attr)
               for v, s in values):
            return  # also set to something else: we cannot tell it is a number
        kind = "float" if any(type(v) is float for v in literals) else "int"
        if kind == "float" and not isinstance(node, ast.AugAssign):
            return  # measured: 2-3 compiles in 12 calls under inductor, not one per call
        dtype = "torch.float64" if kind == "float" else "torch.long"
        ctx.report(node, f"`{self_name}.{attr}` is a Python {kind} that compiled code changes: {COST}; keep it in "
                         f"a buffer (`register_buffer(\"{attr}\", torch.zeros((), dtype={dtype}), persistent=False)`) "
                         f"and update it in place", self._buffer_fix(attr, ctx))

    def _buffer_fix(self, attr: str, ctx) -> Optional[Fix]:
        """The int becomes a 0-dim long buffer; `self.x = self.x + k` becomes `self.x += k`. Offered only
        when every other read of the attribute already sits in a tensor expression of this function,
        so no result changes type (an `if self.step % 10` would turn into a tensor condition)."""
        cls = ctx.scope.cls
        init = cls.methods.get("__init__")
        if init is None:
            return None
        init_self = self_param(init)
        inits = [s for s in init.body if isinstance(s, ast.Assign) and len(s.targets) == 1
                 and self_attr(s.targets[0], init_self) == attr and number_literal(s.value) is not None]
        if len(inits) != 1 or not _after_super_init(init, inits[0]):
            return None
        start = inits[0]
        value = number_literal(start.value)
        if torch_name(ctx)[0] is None:
            return None  # torch imported only under a condition: a fix must not make it a hard import
        torch = torch_prefix(ctx)  # the module's own name for torch (`import torch as th`)
        # float64 keeps a Python float's precision; 0-dim, so it never changes another tensor's dtype.
        dtype = f"{torch}.float64" if type(value) is float else f"{torch}.long"
        made = f"{torch}.zeros((), dtype={dtype})" if value == 0 else f"{torch}.full((), {value!r}, dtype={dtype})"
        call = f'{init_self}.register_buffer("{attr}", {made}, persistent=False)'
        line = ctx.file.lines[start.lineno - 1]
        indent = line[:len(line) - len(line.lstrip())]
        if len(indent) + len(call) > 88:  # wrap as black would, so the fix adds no long line
            call = (f"{init_self}.register_buffer(\n{indent}    \"{attr}\", {made}, persistent=False\n{indent})")
        edits = [ctx.replace(start, call)]
        mutated: set[int] = set()
        for method in cls.methods.values():
            name = self_param(method)
            for stmt in ast.walk(method):
                if isinstance(stmt, ast.AugAssign) and self_attr(stmt.target, name) == attr:
                    mutated.update(id(n) for n in ast.walk(stmt))
                elif isinstance(stmt, ast.Assign) and stmt is not start and any(
                        self_attr(t, name) == attr for t in stmt.targets):
                    step = _increment(stmt, name, attr)
                    if step is None:
                        return None
                    edits.append(ctx.replace(stmt, f"{name}.{attr} {step[0]}= {ctx.segment(step[1])}"))
                    mutated.update(id(n) for n in ast.walk(stmt))
        if not self._other_reads_are_tensor_math(attr, mutated, ctx):
            return None
        return replace_fix(f"keep `{attr}` in a 0-dim buffer", "unsafe", edits, imports=torch_imports(ctx))

    @staticmethod
    def _other_reads_are_tensor_math(attr: str, mutated: set[int], ctx) -> bool:
        cls, here = ctx.scope.cls, ctx.scope.func
        for method in cls.methods.values():
            name = self_param(method)
            parents = {id(c): p for p in ast.walk(method) for c in ast.iter_child_nodes(p)}
            for node in ast.walk(method):
                if id(node) in mutated or self_attr(node, name) != attr or not isinstance(node.ctx, ast.Load):
                    continue
                if method is not here or method is cls.methods.get("__init__"):
                    return False
                top, parent = node, parents.get(id(node))
                while isinstance(parent, ast.BinOp) and not isinstance(parent.op, ast.MatMult):
                    top, parent = parent, parents.get(id(parent))
                if top is node or not ctx.is_tensor(top):
                    return False
        return True

    # -- global N; N += 1 ----------------------------------------------------------------------------
    def _check_global(self, node, name: str, ctx) -> None:
        if name not in _globals_declared(ctx.scope.func, ctx) or int_literal(_module_value(ctx.file.tree, name)) is None:
            return
        if isinstance(node, ast.Assign) and not _reads(node.value, lambda n: isinstance(n, ast.Name) and n.id == name):
            return
        ctx.report(node, f"the module-level int `{name}` changes in compiled code: {COST}; count outside the "
                         f"compiled function or keep the count in a tensor")

    def _check_global_dict(self, node, target: ast.Subscript, ctx) -> None:
        name = target.value.id
        if _binds_locally(ctx.scope.func, name, ctx):
            return
        table = _module_value(ctx.file.tree, name)
        key = target.slice
        if not (isinstance(table, ast.Dict) and isinstance(key, ast.Constant)):
            return
        entry = next((v for k, v in zip(table.keys, table.values)
                      if isinstance(k, ast.Constant) and k.value == key.value), None)
        if int_literal(entry) is None:
            return
        if isinstance(node, ast.Assign) and not _reads(node.value, lambda n: isinstance(n, ast.Subscript)
                                                      and ast.dump(n.value) == ast.dump(target.value)):
            return
        ctx.report(node, f"`{name}[{key.value!r}]` is a Python int in a module-level dict that compiled code "
                         f"changes: {COST}; count outside the compiled function or keep the count in a tensor")

    VALID = [
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.register_buffer(
            "step", torch.zeros((), dtype=torch.long), persistent=False
        )

    def forward(self, x):
        self.step += 1
        return self.lin(x)


def factory():
    return Net(), (torch.randn(2, 4),)
""", calls=12),
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.scale = 0.5  # read, never changed: a constant

    def forward(self, x):
        return self.lin(x) * self.scale


def factory():
    return Net(), (torch.randn(2, 4),)
""", calls=12),
        Example("""
import torch
from torch import nn


class Trainer:
    def __init__(self, model):
        self.model = model
        self.step = 0

    def train_step(self, x):  # not compiled: counting here costs nothing
        self.step += 1
        return self.model(x)
""", runnable=False),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.decay = 1.0

    def forward(self, x):
        self.decay *= 0.9
        return self.lin(x) * self.decay


def factory():
    return Net(), (torch.randn(2, 4),)
""", calls=12, fixed="""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.register_buffer(
            "decay", torch.full((), 1.0, dtype=torch.float64), persistent=False
        )

    def forward(self, x):
        self.decay *= 0.9
        return self.lin(x) * self.decay


def factory():
    return Net(), (torch.randn(2, 4),)
""", at=((13, 9),)),
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.step = 0

    def forward(self, x):
        self.step += 1
        return self.lin(x)


def factory():
    return Net(), (torch.randn(2, 4),)
""", calls=12, fixed="""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.register_buffer(
            "step", torch.zeros((), dtype=torch.long), persistent=False
        )

    def forward(self, x):
        self.step += 1
        return self.lin(x)


def factory():
    return Net(), (torch.randn(2, 4),)
""", at=((13, 9),)),
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x):
        self.calls = self.calls + 1
        return x * self.calls


def factory():
    return Net(), (torch.randn(2, 4),)
""", calls=12, fixed="""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer(
            "calls", torch.zeros((), dtype=torch.long), persistent=False
        )

    def forward(self, x):
        self.calls += 1
        return x * self.calls


def factory():
    return Net(), (torch.randn(2, 4),)
""", at=((12, 9),)),
        Example("""
import torch

STATS = {"calls": 0}


@torch.compile
def step(x):
    STATS["calls"] += 1
    return x * 2


def factory():
    return step, (torch.randn(4),)
""", calls=12, at=((9, 5),)),
    ]


def _increment(stmt: ast.Assign, self_name: str, attr: str) -> Optional[tuple[str, ast.AST]]:
    """(op, operand) for `self.x = self.x + k` / `- k` / `* k` / `/ k`, else None."""
    value = stmt.value
    if len(stmt.targets) != 1 or not isinstance(value, ast.BinOp) or self_attr(value.left, self_name) != attr:
        return None
    op = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}.get(type(value.op))
    if op is None or _reads(value.right, lambda n: self_attr(n, self_name) == attr):
        return None
    return op, value.right


def _after_super_init(init: ast.AST, stmt: ast.stmt) -> bool:
    """register_buffer needs nn.Module.__init__ to have run first."""
    for s in init.body:
        if s is stmt:
            return False
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Attribute) \
                and s.value.func.attr == "__init__":
            return True
    return False


def _module_value(tree: ast.Module, name: str) -> Optional[ast.AST]:
    """The value of a single top-level `name = value`, None when it is bound any other way."""
    found = None
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
            if found is not None or len(stmt.targets) != 1:
                return None
            found = stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name:
            if found is not None:
                return None
            found = stmt.value
    return found


def _globals_declared(func: ast.AST, ctx) -> frozenset:
    """Names a `global` statement in `func` declares, once per function: walking the function for
    every assignment in it made BL601 quadratic (most of a cold run's time on transformers)."""
    # Most files have no `global` at all: no walk. The text test itself is once per file (it ran
    # once per assignment, scanning the whole source each time).
    if not ctx.file.memo("BL601 says global", lambda: "global" in ctx.file.source):
        return frozenset()
    return ctx.file.memo(("BL601 globals", id(func)), lambda: frozenset(
        name for n in walk(func) if type(n) is ast.Global for name in n.names))


def _local_names(func: ast.AST, ctx) -> frozenset:
    """Parameters and names stored anywhere in `func`, once per function."""
    def names() -> frozenset:
        args = func.args
        bound = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
        bound |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
        # astwalk's walk skips the context nodes (a third of all nodes); the parser makes no subclasses
        bound |= {n.id for n in walk(func) if type(n) is ast.Name and type(n.ctx) is ast.Store}
        return frozenset(bound)
    return ctx.file.memo(("BL601 locals", id(func)), names)


def _binds_locally(func: ast.AST, name: str, ctx) -> bool:
    return name in _local_names(func, ctx)
