"""What a torch.where rewrite must prove from the source before it is offered.

torch.where(c, a, b) evaluates both `a` and `b` and broadcasts c, a and b to one shape, so it keeps
the meaning of `if c: x = a else: x = b` only when:
- `c` is a tensor on every path (a Python bool or int makes torch.where raise TypeError);
- `a` and `b` have the same shape (`torch.cat` on one side only raises, or silently broadcasts);
- neither may be None;
- the side not taken is finite in value and in gradient (`0 / 0` in it gives NaN gradients).
Each check answers from the source alone; when it cannot tell, the rewrite is refused.
"""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

from ..analysis.astwalk import function_nodes
from ..analysis.flow import parameter_defaults
from ..analysis.tensors import annotation_kind
from ..analysis.torch_api import ELEMENTWISE, FULL_REDUCTIONS, KEEP_SHAPE, SCALAR_METHODS, SINGULAR

if TYPE_CHECKING:
    from ..rules.base import NodeContext

UNKNOWN = object()  # a binding whose value we do not see (for targets, unpacking, with ... as)


def _function(ctx: "NodeContext"):
    return ctx.scope.func if ctx.scope is not None else None


def _parameter(func, name: str) -> Optional[tuple[ast.arg, Optional[ast.AST]]]:
    """The parameter `name` of `func` and its default, else None."""
    return next(((arg, default) for arg, default in parameter_defaults(func.args) if arg.arg == name), None)


def bindings(ctx: "NodeContext", name: str) -> list:
    """Every value `name` is bound to in the function (UNKNOWN where the value is not a plain
    expression: for targets, unpacking, `with ... as`, `:=`), the parameter's own value not included."""
    func = _function(ctx)
    if func is None:
        return [UNKNOWN]
    # once per function and name: the fix checks ask again for every condition and every name in it
    return list(ctx.file.memo(("fix bindings", id(func), name), lambda: _bindings(func, name)))


def _bindings(func, name: str) -> tuple:
    nodes = function_nodes(func)
    values: list = []
    plain: set[int] = set()
    for node in nodes:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == name:
                    values.append(node.value)
                    plain.add(id(target))
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name) \
                and node.target.id == name:
            plain.add(id(node.target))
            if isinstance(node, ast.AugAssign):
                values.append(ast.BinOp(left=ast.Name(name, ast.Load()), op=node.op, right=node.value))
            else:
                values.append(node.value if node.value is not None else UNKNOWN)
        elif isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            values.append(UNKNOWN)
    for node in nodes:
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, (ast.Store, ast.Del)) \
                and id(node) not in plain:
            values.append(UNKNOWN)
    return tuple(values)


# -- the condition ---------------------------------------------------------------------------------
SCALAR_BUILTINS = ("float", "int", "bool")


def is_scalar_extraction(node: ast.AST, ctx: "NodeContext") -> Optional[ast.AST]:
    """The tensor inside `t.item()`, `float(t)`, `int(t)` or `bool(t)`, else None."""
    if not isinstance(node, ast.Call) or node.keywords:
        return None
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr == "item" and not node.args \
            and ctx.is_tensor(func.value):
        return func.value
    if isinstance(func, ast.Name) and func.id in SCALAR_BUILTINS and len(node.args) == 1 \
            and not ctx.file.imports.is_bound(func.id) and ctx.is_tensor(node.args[0]):
        return node.args[0]
    return None



def surely_tensor(node: ast.AST, ctx: "NodeContext", seen: frozenset = frozenset()) -> bool:
    """A tensor on every path that reaches `node` (whenever the original code runs at all): a
    torch call, a tensor method, a name whose every binding is one. A parameter is one only when
    annotated as a Tensor; `n = n or t.max()` and `if n > 3` with an int `n` are not."""
    if isinstance(node, ast.Name):
        if node.id in seen:
            return True  # `y = y * 2`: a tensor if it was one (every other binding decides)
        func = _function(ctx)
        if func is None:
            return False
        seen = seen | {node.id}
        param = _parameter(func, node.id)
        if param is not None:
            arg, default = param
            if annotation_kind(arg.annotation) is not True or default is not None:
                return False
        values = bindings(ctx, node.id)
        if param is None and not values:
            return False  # a global or a closure's free name
        for value in values:
            if value is UNKNOWN:
                if not ctx.is_tensor(node):
                    return False
            elif not surely_tensor(value, ctx, seen):
                return False
        return True
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute):
            qual = ctx.qualify(func) or ""
            if qual.startswith("torch.") and not qual.startswith("torch.nn.Module"):
                return ctx.is_tensor(node)
            if func.attr in SCALAR_METHODS or func.attr.startswith("__"):
                return False
            # A method only tensors have (`m.sum()`): were the receiver a number, the original would fail.
            return ctx.is_tensor(node)
        qual = ctx.qualify(func) or ""
        return qual.startswith("torch.") and ctx.is_tensor(node)
    if isinstance(node, ast.Subscript):
        return surely_tensor(node.value, ctx, seen)
    if isinstance(node, ast.BinOp):
        return surely_tensor(node.left, ctx, seen) or surely_tensor(node.right, ctx, seen)
    if isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.Not):
        return surely_tensor(node.operand, ctx, seen)
    if isinstance(node, ast.Compare):
        if any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in node.ops):
            return False
        return any(surely_tensor(o, ctx, seen) for o in [node.left, *node.comparators])
    if isinstance(node, ast.Attribute) and node.attr in ("T", "mT", "H", "mH", "data", "real", "imag"):
        return surely_tensor(node.value, ctx, seen)
    return False


def condition_is_tensor(test: ast.AST, ctx: "NodeContext", drop_scalars: bool) -> bool:
    """The `if` test is a tensor on every path, once `.item()` / `float(t)` are dropped (BL102)."""
    if isinstance(test, ast.BoolOp):
        return all(condition_is_tensor(v, ctx, drop_scalars) for v in test.values)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, (ast.Not, ast.Invert)):
        return condition_is_tensor(test.operand, ctx, drop_scalars)
    if drop_scalars:
        inner = is_scalar_extraction(test, ctx)
        if inner is not None:
            return condition_is_tensor(inner, ctx, drop_scalars)
    if isinstance(test, (ast.Compare, ast.BinOp)):
        operands = [test.left, *test.comparators] if isinstance(test, ast.Compare) else [test.left, test.right]
        if isinstance(test, ast.Compare) and any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn))
                                                 for op in test.ops):
            return False
        return any(condition_is_tensor(o, ctx, drop_scalars) for o in operands)
    return surely_tensor(test, ctx)


# -- the operands ----------------------------------------------------------------------------------
def may_be_none(node: ast.AST, ctx: "NodeContext") -> bool:
    """A name that is None (or any non-tensor constant) on some path: a parameter defaulting to
    None or annotated Optional, or a local ever bound to a constant that is not a number."""
    if not isinstance(node, ast.Name):
        return isinstance(node, ast.Constant) and node.value is None
    func = _function(ctx)
    if func is None:
        return True
    param = _parameter(func, node.id)
    if param is not None:
        arg, default = param
        if isinstance(default, ast.Constant) and default.value is None:
            return True
        if arg.annotation is not None and "Optional" in ast.unparse(arg.annotation) \
                or "None" in (ast.unparse(arg.annotation) if arg.annotation is not None else ""):
            return True
    for value in bindings(ctx, node.id):
        if isinstance(value, ast.Constant) and type(value.value) not in (int, float):
            return True
        if isinstance(value, ast.IfExp) and any(isinstance(v, ast.Constant) and v.value is None
                                                for v in (value.body, value.orelse)):
            return True
        if isinstance(value, ast.BoolOp):
            return True  # `m = m or default`: whatever the operands are
    return False


def shape_key(node: ast.AST, ctx: "NodeContext", depth: int = 0,
              skip: Optional[ast.AST] = None) -> Optional[frozenset]:
    """The tensors (by source text) whose broadcast shape `node` has, when it is an elementwise
    function of them; the empty set for a 0-d tensor or a number; None when the shape is unknown
    (indexing, cat, reshape, layers, helper calls). Two values with the same key have one shape."""
    if depth > 6:
        return None
    if isinstance(node, ast.Constant):
        return frozenset() if type(node.value) in (int, float, bool) else None
    if isinstance(node, ast.Name):
        func = _function(ctx)
        values = bindings(ctx, node.id) if func is not None else []
        if skip is not None:  # the statement being rewritten: its own bindings are what replaces it
            values = [v for v in values if v is UNKNOWN or not (
                skip.lineno <= getattr(v, "lineno", 0) <= skip.end_lineno)]
        if func is not None and _parameter(func, node.id) is None and len(values) == 1 \
                and values[0] is not UNKNOWN and not any(isinstance(n, ast.Name) and n.id == node.id
                                                        for n in ast.walk(values[0])):
            got = shape_key(values[0], ctx, depth + 1, skip)  # `s = x.sum()`: 0-d, whatever x is
            if got is not None:
                return got
        if not ctx.is_tensor(node):
            return frozenset()  # a Python number (`capacity`), as far as the analysis knows
        return frozenset({node.id})
    if isinstance(node, ast.Attribute):
        if isinstance(node.value, ast.Name):
            if not ctx.is_tensor(node):
                return frozenset()  # self.clip, torch.float32, torch.pi: not tensors
            return frozenset({f"{node.value.id}.{node.attr}"})  # self.buffer: its own shape
        return None
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.MatMult):
            return None
        return _union(shape_key(node.left, ctx, depth + 1, skip), shape_key(node.right, ctx, depth + 1, skip))
    if isinstance(node, ast.UnaryOp):
        return shape_key(node.operand, ctx, depth + 1, skip)
    if isinstance(node, ast.Compare):
        keys = [shape_key(o, ctx, depth + 1, skip) for o in [node.left, *node.comparators]]
        return _union(*keys)
    if isinstance(node, ast.Call):
        func = node.func
        qual = ctx.qualify(func) or ""
        short = qual.rsplit(".", 1)[-1] if qual.startswith("torch.") else None
        if short is not None and _zero_dim_factory(short, node):
            return frozenset()  # torch.zeros(()), torch.tensor(0.0): a 0-d tensor
        receiver = None
        if short is None and isinstance(func, ast.Attribute):
            short, receiver = func.attr, func.value
        if short is None:
            return None
        plain = not node.keywords or all(k.arg in ("dtype",) for k in node.keywords)
        if short in FULL_REDUCTIONS and plain and len(node.args) == (0 if receiver is not None else 1):
            return frozenset()
        if short in FULL_REDUCTIONS and any(k.arg == "keepdim" and isinstance(k.value, ast.Constant)
                                            and k.value.value is True for k in node.keywords):
            # keepdim: the shape of the input with some sizes 1, which broadcasts back into it
            inner = shape_key(receiver if receiver is not None else node.args[0], ctx, depth + 1, skip)
            return None if inner is None else frozenset(k if isinstance(k, tuple) else ("within", k) for k in inner)
        if short in KEEP_SHAPE:
            first = receiver if receiver is not None else (node.args[0] if node.args else None)
            return None if first is None else shape_key(first, ctx, depth + 1, skip)
        if short not in ELEMENTWISE or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        if short == "masked_fill" and receiver is not None:
            return shape_key(receiver, ctx, depth + 1, skip)  # the mask broadcasts into the receiver's shape
        if short in ("to", "type_as", "float", "double", "half", "bfloat16", "long", "int", "bool",
                     "detach", "clone", "contiguous", "zeros_like", "ones_like", "full_like", "empty_like"):
            parts = [receiver] if receiver is not None else node.args[:1]  # casts: the receiver's shape
        else:
            parts = ([receiver] if receiver is not None else []) + list(node.args) + \
                [k.value for k in node.keywords if k.arg not in ("dtype", "inplace")]
        return _union(*(shape_key(p, ctx, depth + 1, skip) for p in parts)) if parts else None
    return None


def _zero_dim_factory(short: str, call: ast.Call) -> bool:
    if not call.args or any(isinstance(a, ast.Starred) for a in call.args):
        return False
    first = call.args[0]
    if short in ("zeros", "ones", "empty", "full"):
        return isinstance(first, (ast.Tuple, ast.List)) and not first.elts
    if short in ("tensor", "scalar_tensor", "as_tensor"):
        value = first.operand if isinstance(first, ast.UnaryOp) and isinstance(first.op, ast.USub) else first
        return isinstance(value, ast.Constant) and type(value.value) in (int, float, bool)
    return False


def _union(*keys: Optional[frozenset]) -> Optional[frozenset]:
    """The key of an elementwise result: ("within", x) (a keepdim reduction of x) adds nothing
    beside x itself, since it broadcasts into x's shape."""
    if any(k is None for k in keys):
        return None
    joined = frozenset().union(*keys)
    return frozenset(k for k in joined if not (isinstance(k, tuple) and k[1] in joined))


def same_shape(ctx: "NodeContext", values: list[ast.AST], skip: Optional[ast.AST] = None) -> bool:
    """Every value has one shape: the same tensors, elementwise; a number only beside 0-d values.
    `skip`: the statement being rewritten, whose own assignments say nothing of the names before it."""
    keys = [shape_key(v, ctx, 0, skip) for v in values]
    if any(k is None for k in keys):
        return False
    return len(set(keys)) == 1


def singular_ops(node: ast.AST, ctx: "NodeContext") -> tuple[list[ast.AST], bool]:
    """(denominators of `/`, `//`, `%` that are not nonzero numbers, whether any other op with a
    singular value or gradient is present: log, sqrt, pow, ...)."""
    denominators: list[ast.AST] = []
    other = False
    for sub in ast.walk(node):
        if isinstance(sub, ast.BinOp) and isinstance(sub.op, (ast.Div, ast.FloorDiv, ast.Mod)):
            right = sub.right
            if isinstance(right, ast.UnaryOp) and isinstance(right.op, (ast.USub, ast.UAdd)):
                right = right.operand
            if not (isinstance(right, ast.Constant) and type(right.value) in (int, float) and right.value != 0):
                denominators.append(sub.right)
        elif isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Pow):
            exponent = sub.right
            if not (isinstance(exponent, ast.Constant) and type(exponent.value) is int and exponent.value >= 0):
                other = True
        elif isinstance(sub, ast.Call):
            qual = ctx.qualify(sub.func) or ""
            short = qual.rsplit(".", 1)[-1] if qual.startswith("torch.") else getattr(sub.func, "attr", "")
            if short in SINGULAR:
                other = True
    return denominators, other


def numpy_free(node: ast.AST, ctx: "NodeContext", seen: frozenset = frozenset()) -> bool:
    """No value in `node` comes from numpy: `remainder = np.array(shape) % k > 0` has `.any()` too
    (monai's convutils), and torch._assert_async and torch.where refuse an ndarray. Follows names to what
    they were bound to in the function, and `self.x` to what the class assigns to it."""
    if not ctx.file.memo(("mentions numpy",), lambda: "numpy" in ctx.file.source or "np." in ctx.file.source):
        return True  # nothing here can call numpy: no walk (this runs for every tensor condition of a tree)
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and (ctx.qualify(sub.func) or "").split(".")[0] in ("numpy", "np"):
            return False
        if isinstance(sub, ast.Name) and sub.id not in seen:
            for value in bindings(ctx, sub.id):
                if isinstance(value, ast.AST) and not numpy_free(value, ctx, seen | {sub.id}):
                    return False
        elif isinstance(sub, ast.Attribute) and f"self.{sub.attr}" not in seen:
            if any(not numpy_free(value, ctx, seen | {f"self.{sub.attr}"}) for value in _held_values(sub, ctx)):
                return False
    return True


def _held_values(node: ast.AST, ctx: "NodeContext") -> list:
    """What the class of the traced method gives `self.<attr>` (`self.arr = np.zeros(3)`), for a read of
    one; else nothing."""
    scope = ctx.scope
    if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and scope is not None
            and scope.cls is not None and scope.func.args.args and node.value.id == scope.func.args.args[0].arg):
        return []
    return [value for value in ctx.file.scopes.held_by_self(scope.cls, node.attr) if isinstance(value, ast.AST)]
