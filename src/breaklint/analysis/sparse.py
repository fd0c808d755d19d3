"""Sparse tensors in traced functions (BL504): what makes one, which names hold one, and where a
function first uses one.

Measured on torch 2.13 CPU: Dynamo cannot wrap a sparse tensor. Making one breaks (a skipped
constructor, GB0007 / GB0374; `to_sparse()`, GB0277), and the first use of one in a frame, whether the
frame made it, got it as an argument or got it from a call, breaks again ("Attempted to wrap sparse
Tensor", GB0015); Dynamo then runs the rest of that frame eagerly, so later uses do not break on their
own.
"""
from __future__ import annotations

import ast
import functools
import re
from typing import Callable, Iterable, Optional

from .astwalk import own_nodes
from .filefacts import returns_of
from .names import dotted
from .new_objects import sure_rows

LAYOUTS = ("coo", "csr", "csc", "bsr", "bsc")
CONSTRUCTORS = frozenset({f"torch.sparse_{layout}_tensor" for layout in LAYOUTS} | {"torch.sparse_compressed_tensor"})
CONVERSIONS = frozenset({"to_sparse"} | {f"to_sparse_{layout}" for layout in LAYOUTS})
# Methods whose result is as sparse as the tensor they are called on.
KEEPS_SPARSE = frozenset({"coalesce", "to", "float", "double", "half", "cpu", "cuda", "detach", "t", "transpose",
                          "requires_grad_"})
# torch functions whose first argument is a sparse matrix by contract (a dense one would need no
# torch.sparse): the product of two sparse ones is sparse, of a sparse and a dense one dense.
SPARSE_OPERANDS = frozenset({"torch.sparse.mm", "torch.sparse.addmm", "torch.sparse.sum", "torch.sparse.softmax",
                             "torch.sparse.log_softmax", "torch.smm", "torch.sspaddmm", "torch.hspmm"})
# Tensor methods only a sparse tensor has: the value they are called on is one.
SPARSE_ONLY_METHODS = frozenset({"_nnz", "sparse_dim", "dense_dim", "crow_indices", "col_indices", "ccol_indices",
                                 "row_indices", "_indices", "_values"})
# ... and those a sparse tensor has that other objects have too (torch_geometric's Data and SparseTensor have
# coalesce()): counted only on a parameter annotated as a tensor.
SPARSE_TENSOR_METHODS = frozenset({"coalesce", "is_coalesced", "indices", "values"})


# Code that may make, take or use a sparse tensor (not the word in prose: "sparse attention", "sparse MoE").
_SPARSE_CODE = re.compile(r"to_sparse|sparse_(?:coo|csr|csc|bsr|bsc|compressed)_tensor|torch\.sparse\.|\b(?:smm|sspaddmm|hspmm)\("
                          r"|\.(?:_nnz|sparse_dim|dense_dim|crow_indices|col_indices|ccol_indices|row_indices|_indices"
                          r"|_values|coalesce|is_coalesced|indices)\(")


def may_hold_sparse(source: str, told: bool = False) -> bool:
    """Whether a file's code may hold a sparse tensor: it spells a sparse constructor, conversion, operation or
    method, or the call graph told it of one (`told`: a function of another file that returns one, a parameter
    other files hand one). The analysis runs only there (substring tests first: most files have none of them)."""
    return told or _spells_sparse_code(source)


_SPARSE_HINTS = ("sparse", "coalesce(", "_nnz(", "_indices(", "_values(", "smm(", "dense_dim(")


@functools.lru_cache(maxsize=512)  # asked by each lint of a file (graph rounds too) and by the summary
def _spells_sparse_code(source: str) -> bool:
    for hint in _SPARSE_HINTS:
        if hint in source:
            return _SPARSE_CODE.search(source) is not None
    return False


def makes_sparse(value: ast.AST, qualify: Callable[[ast.AST], Optional[str]]) -> bool:
    """A sparse constructor or conversion, through methods called on its result (`.coalesce()`,
    `.to_sparse_csr()`, `.to(device)`), not turned dense again."""
    while isinstance(value, ast.Call):
        func = value.func
        if (qualify(func) or "") in CONSTRUCTORS:
            return True
        if not isinstance(func, ast.Attribute):
            return False
        if func.attr in CONVERSIONS:
            return True
        if func.attr not in KEEPS_SPARSE:  # `.indices()`, `.to_dense()`, `.sum()`: a dense tensor
            return False
        value = func.value
    return False


class SparseValues:
    """Which names of a file's traced functions hold sparse tensors. `returns_sparse(call)` says whether
    a call gives one: a constructor, this file's function (`returns`), or a name the call graph says
    returns one (`elsewhere`, dotted as the file spells it)."""

    def __init__(self, scopes, qualify: Callable[[ast.AST], Optional[str]], elsewhere: frozenset = frozenset(),
                 handed: Optional[dict] = None):
        self.scopes = scopes
        self.qualify = qualify
        self.elsewhere = elsewhere
        self.handed = handed or {}  # qualname -> positions of the parameters other files hand a sparse tensor
        self._names: dict[int, dict[str, int]] = {}
        self._made: dict[int, set[str]] = {}
        self._returns: dict[str, bool] = {}

    def is_sparse(self, value: ast.AST, scope) -> bool:
        """A value that is surely sparse where it is computed: made sparse, a call that returns one, a product
        of two sparse ones, or a local that only ever holds one."""
        if makes_sparse(value, self.qualify):
            return True
        if isinstance(value, ast.Name):
            return value.id in self.sparse_names(scope)
        if not isinstance(value, ast.Call):
            return False
        qualified = self.qualify(value.func) or ""
        if qualified in ("torch.sparse.mm", "torch.smm", "torch.hspmm") and len(value.args) == 2:
            return self.is_sparse(value.args[1], scope)
        if qualified and qualified in self.elsewhere:
            return True
        target = self.scopes.resolve_call(scope, value)
        return target is not None and self.returns_sparse(target[2])

    def returns_sparse(self, qualname: str) -> bool:
        """Whether a traced function of this file returns a sparse tensor on every path."""
        if qualname not in self._returns:
            self._returns[qualname] = False  # recursion sees "no"
            scope = self.scopes.scopes.get(qualname)
            values = [node.value for node in returns_of(scope.func)] if scope is not None else []
            self._returns[qualname] = bool(values) and all(v is not None and self.is_sparse(v, scope) for v in values)
        return self._returns[qualname]

    def sparse_names(self, scope) -> dict[str, int]:
        """name -> the line from which it holds a sparse tensor: a local every assignment of which makes
        one (from its first assignment), a name passed as the sparse operand of torch.sparse.mm & co or
        given a method only sparse tensors have (from its first binding; a parameter from the start)."""
        key = id(scope.func)
        if key in self._names:
            return self._names[key]
        self._names[key] = found = {}  # a local defined through itself sees nothing
        values = self.scopes.local_values_of(scope.func)
        positional = _parameters(scope.func)
        params = set(positional) | {a.arg for a in scope.func.args.kwonlyargs}
        for name, bound in values.items():
            # (not a parameter bound again on some path: `if coo: adj = adj.to_sparse()` keeps it dense on others)
            if bound and name not in params and all(self.is_sparse(v, scope) for v in bound):
                found[name] = min(v.lineno for v in bound)
        self._made[key] = set(found)
        own = own_nodes(scope.func)
        tested = _tested_for_sparsity(own)
        # An element of a container is wrapped only when an operation uses it, not when it is passed on
        # (measured: `for adj in self.adjs: propagate(adj, x)` breaks inside propagate).
        looped = {n.id for loop in own if isinstance(loop, (ast.For, ast.comprehension))
                  for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
        tensors = _tensor_parameters(scope.func)
        operands = [operand for node in own if isinstance(node, ast.Call)
                    for operand in [_sparse_operand(node, self.qualify, tensors),
                                    *(arg for arg in self._passed_as_sparse(node, scope)
                                      if getattr(arg, "id", None) not in looped)]]
        for operand in operands:
            if isinstance(operand, ast.Name) and operand.id not in tested:  # sparse by contract, there
                # from the binding before that use (`if coo: adj = ... elif ...: adj = ...` then `mm(adj, x)`)
                before = [v.lineno for v in values.get(operand.id, ()) if v.lineno <= operand.lineno]
                found.setdefault(operand.id, max(before) if before else scope.func.lineno)
        # a parameter every caller hands a sparse tensor (`_batch_mm(self.matrix, x)`): those of this file, and
        # those of other files (the call graph's `handed`)
        sites = self.scopes.call_sites.get(scope.qualname, ())
        elsewhere = self.handed.get(scope.qualname, frozenset())
        for index, name in enumerate(positional):
            if name in found or name in values or name in tested or not (sites or index in elsewhere):
                continue
            if not sites:
                found[name] = scope.func.lineno
                continue
            handed = [_argument(site.call, index - (1 if site.bound_self else 0), name) for site in sites]
            if all(arg is not None and self.is_sparse(arg, site.caller) for arg, site in zip(handed, sites)):
                found[name] = scope.func.lineno
        return found

    def _passed_as_sparse(self, call: ast.Call, scope) -> list[ast.AST]:
        """The arguments a call of this file's function hands to parameters it takes as sparse by contract
        (`_get_to_orthogonalize(matrix, n)` with `matrix.coalesce()` inside)."""
        target = self.scopes.resolve_call(scope, call)
        callee = self.scopes.scopes.get(target[2]) if target is not None else None
        if callee is None:
            return []
        taken = self.sparse_names(callee)
        params = _parameters(callee.func)
        offset = 1 if target[3] else 0
        return [arg for arg in (_argument(call, i - offset, name) for i, name in enumerate(params)
                                if taken.get(name) == callee.func.lineno) if arg is not None]

    def first_use(self, scope) -> Optional[ast.AST]:
        """Where the function first uses a sparse tensor (a name that holds one, or the sparse operand of
        torch.sparse.mm & co spelled as an expression): the node Dynamo breaks at, or None."""
        names = self.sparse_names(scope)
        uses = []
        for node in own_nodes(scope.func):  # a def nested in it is a frame of its own
            if isinstance(node, ast.Name):
                start = names.get(node.id)
                # after the binding that makes it sparse; a parameter (sparse from the start): any use
                if start is not None and isinstance(node.ctx, ast.Load) \
                        and (node.lineno > start or start == scope.func.lineno):
                    uses.append(node)
            elif isinstance(node, ast.Call):
                operand = _sparse_operand(node, self.qualify)
                if operand is not None and not isinstance(operand, ast.Name):
                    uses.append(operand)
        return min(uses, key=lambda n: (n.lineno, n.col_offset)) if uses else None


    def wrapped_at(self, scope, use: ast.AST, breaks: Iterable[int]) -> Optional[ast.AST]:
        """Where Dynamo wraps the sparse local `use` reads, when that comes before the read: a local the
        function makes (its binding broke: a constructor, `to_sparse()`, a call that returns one) is wrapped
        at the frame's next break, which reports "Attempted to wrap sparse Tensor" there (measured on 2.13:
        `lo = make(v); hi = make(w); torch.cat([lo, hi])` breaks at `hi = ...`, and so does a `print()` or
        an `.item()` between the binding and the read; a parameter is not wrapped until it is used).
        `breaks`: the rows of the function's unguarded breaks found so far. None: at the read."""
        if not isinstance(use, ast.Name) or use.id not in self._made.get(id(scope.func), ()):
            return None
        bound = [v for v in self.scopes.local_values_of(scope.func).get(use.id, ()) if v.lineno < use.lineno]
        if not bound:
            return None
        after = max(v.end_lineno or v.lineno for v in bound)
        sure = sure_rows(scope.func)
        rows = {row for row in breaks if after < row < use.lineno and row in sure}
        calls = [node for node in own_nodes(scope.func) if isinstance(node, ast.Call)
                 and after < node.lineno < use.lineno and node.lineno in sure and self.is_sparse(node, scope)]
        first = min(rows | {call.lineno for call in calls}, default=None)
        if first is None:
            return None
        return next((call for call in calls if call.lineno == first), None) \
            or next(node for node in own_nodes(scope.func) if getattr(node, "lineno", None) == first)


def sparse_values(file) -> SparseValues:
    """The one SparseValues of a file's lint (`file`: the rules' FileInfo, whose memo lives as long as the lint):
    the summary's `returns_sparse` and BL504 read the same answers."""
    return file.memo(("sparse values",), lambda: SparseValues(file.scopes, file.imports.qualify, file.returns_sparse,
                                                              file.sparse_parameters))


def _parameters(func) -> list[str]:
    return [a.arg for a in func.args.posonlyargs + func.args.args]


def _argument(call: ast.Call, index: int, name: str) -> Optional[ast.AST]:
    """What a call hands the parameter at `index` (among those after an implicit self) named `name`."""
    if any(isinstance(a, ast.Starred) for a in call.args):
        return None
    if 0 <= index < len(call.args):
        return call.args[index]
    return next((kw.value for kw in call.keywords if kw.arg == name), None)


def _tested_for_sparsity(own: list[ast.AST]) -> set[str]:
    """Names the function tests for sparsity anywhere (`if is_torch_sparse_tensor(adj):`, `sparse = adj.is_sparse`,
    `isinstance(adj, SparseTensor)`, `x.layout == torch.sparse_csr`): they may be dense or sparse, and a
    sparse-only method or a torch.sparse call under the test says nothing of the other path."""
    found = set()
    for node in own:
        if isinstance(node, ast.Attribute) and node.attr in ("is_sparse", "is_sparse_csr", "layout") \
                and isinstance(node.value, ast.Name):
            found.add(node.value.id)
        elif isinstance(node, ast.Call) and _tests_sparsity(node):
            found |= {arg.id for arg in node.args if isinstance(arg, ast.Name)}
    return found


def _tensor_parameters(func) -> frozenset:
    """Parameters annotated `torch.Tensor` / `Tensor`."""
    args = func.args.posonlyargs + func.args.args + func.args.kwonlyargs
    return frozenset(a.arg for a in args if a.annotation is not None
                     and (dotted(a.annotation) or "").rsplit(".", 1)[-1] == "Tensor")


def _tests_sparsity(call: ast.Call) -> bool:
    """`is_torch_sparse_tensor(adj)`, `torch.is_sparse(adj)`, `isinstance(adj, SparseTensor)`: not a conversion."""
    name = (dotted(call.func) or "").rsplit(".", 1)[-1]
    if name == "isinstance":
        return len(call.args) == 2 and "sparse" in ast.unparse(call.args[1]).lower()
    return name.startswith("is_") and "sparse" in name.lower()


def _sparse_operand(call: ast.Call, qualify, tensors: frozenset = frozenset()) -> Optional[ast.AST]:
    """The value a call takes as sparse: the first argument of torch.sparse.mm & co, or what a method only
    sparse tensors have is called on (`m._nnz()`; `m.coalesce()` where `m` is a parameter annotated as a
    tensor, `tensors`: graph objects have coalesce() too)."""
    func = call.func
    if isinstance(func, ast.Attribute) and not call.args and (
            func.attr in SPARSE_ONLY_METHODS or func.attr in SPARSE_TENSOR_METHODS
            and isinstance(func.value, ast.Name) and func.value.id in tensors):
        return func.value
    if call.args and (qualify(func) or "") in SPARSE_OPERANDS:
        return call.args[0]
    return None
