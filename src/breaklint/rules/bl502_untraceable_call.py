"""BL502: calls Dynamo cannot trace and runs eagerly in a graph break: clocks, RNG seeding,
NumPy's scalar random draws, copying tensors, printing a tensor to a string, data_ptr() compared,
torch.jit.isinstance.

Every sub-pattern below was measured on torch 2.13 CPU; patterns that looked similar but do not
break there are deliberately absent (see the comments)."""
from __future__ import annotations

import ast
from typing import Optional

from ..analysis.compiled_modules import compiled_module_of
from ..analysis.flow import parameter_defaults
from ..analysis.names import normalize_torch
from ..analysis.scope import is_module_base
from ..analysis.type_facts import module_optional_typeddicts
from ..analysis.torch_api import (BUILTIN_METHODS, DISTRIBUTION_CLASSES, NUMPY_RANDOM_UNTRACED, NUMPY_SKIPPED_MODULES,
                                  NUMPY_UNTRACED, SKIPPED_LIBRARIES, SKIPPED_TORCH_FUNCTIONS)
from ..fix.rewrite import replace_fix
from ..model import Edit, Fix
from ..versions import before
from .base import Example, Rule, held_values, local_names, root_name

# GB0007 "Attempted to call function marked as skipped". time.sleep is unmeasured: left out.
CLOCKS = {f"time.{name}" for name in (
    "time", "time_ns", "perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns",
    "process_time", "process_time_ns")}
# GB0007. torch.seed() does NOT break on 2.13 (measured): left out.
SEEDS = {"torch.manual_seed", "torch.random.manual_seed", "torch.cuda.manual_seed",
         "torch.cuda.manual_seed_all"}
# NumPy random draws that produce a Python scalar (GB0033, data-dependent) or that Dynamo's numpy
# tracing does not support (GB0294; every function torch._numpy.random lacks, NUMPY_RANDOM_UNTRACED:
# np.random.beta for mixup). Array draws such as np.random.randn(4) or normal(size=4),
# np.random.seed and np.random.shuffle do NOT break on 2.13 (measured): left out.
NP_ALWAYS = {"choice"} | NUMPY_RANDOM_UNTRACED
# nn.Module's hook registration (no other object has these methods): measured on 2.13, each breaks in
# torch/utils/hooks.py, reported at the call ("setattr() on unsupported type"). A tensor's register_hook does not.
MODULE_HOOK_REGISTRATION = {"register_forward_hook", "register_forward_pre_hook", "register_full_backward_hook",
                            "register_full_backward_pre_hook", "register_backward_hook"}
# GB0007, standard library: each measured on 2.13 with real arguments in a compiled function. Not
# skipped there (measured): os.getenv, os.environ, os.path.join / basename / expanduser,
# re.match / search / sub / compile (with constant arguments), inspect.signature / getmodule,
# weakref.ref, platform.system, sys.exc_info.
SKIPPED_STDLIB = {
    "functools.cmp_to_key", "glob.glob", "inspect.currentframe", "inspect.getfile", "inspect.getsourcefile",
    "inspect.stack", "os.cpu_count", "os.getcwd", "os.getpid", "os.listdir", "os.makedirs",
    "os.path.abspath", "os.path.exists", "os.path.getsize", "os.path.isdir", "os.path.isfile", "os.stat",
    "re.finditer", "sys._getframe", "sys.getsizeof", "uuid.uuid4", "weakref.proxy",
    "bisect.bisect", "bisect.bisect_left", "bisect.bisect_right", "bisect.insort", "hashlib.md5",
    "hashlib.sha1", "hashlib.sha256", "heapq.heapify", "heapq.heappop", "heapq.heappush",
    "threading.current_thread", "threading.get_ident", "time.sleep", "gc.collect",
    # stop 28's battery: a stack walk, and scripting a function inside compiled code
    "traceback.format_stack", "traceback.print_stack", "traceback.extract_stack", "torch.jit.script",
    # stop 29: a compression ratio in a decoder's fallback check (whisper, a dev miss); measured on 2.13
    "zlib.compress", "zlib.decompress", "zlib.crc32",
}
# Python's `random` module, GB0007, measured on 2.13 and 2.14 (CPU) as a value in a compiled forward.
# randint, randrange and uniform are traced (the draw becomes a graph input), as are a
# random.Random instance's random() and randint(); branching on any draw breaks (BL110).
RANDOM_SKIPPED = {f"random.{name}" for name in (
    "choice", "choices", "gauss", "normalvariate", "lognormvariate", "betavariate", "gammavariate",
    "expovariate", "vonmisesvariate", "paretovariate", "weibullvariate", "triangular", "getrandbits")}
# ... and these on 2.13 only: 2.14 traces them (measured), as the catalogue says 2.15 does random().
RANDOM_SKIPPED_BEFORE = ("2.14", {"random.random", "random.shuffle", "random.sample", "random.seed"})
# Libraries of compiled code: any of their functions called in traced code breaks, in the call or inside
# the library ("Unsupported method call" GB0156, ndarray attributes GB0157; measured on 2.13 for
# scipy.optimize.linear_sum_assignment, scipy.special.gammaln / erfinv / gamma / comb, scipy.linalg.expm,
# scipy.signal.get_window and pywt.Wavelet). numpy is not one: torch._numpy traces it.
COMPILED_LIBRARIES = ("scipy", "pywt")
# Their pure-Python functions Dynamo inlines (measured on 2.13: scipy.sparse.issparse, an isinstance test, in POT's
# backend selection; the isspmatrix family is the same test).
PURE_PYTHON_CALLS = {"scipy.sparse.issparse", "scipy.sparse.isspmatrix", "scipy.sparse.isspmatrix_coo",
                     "scipy.sparse.isspmatrix_csr", "scipy.sparse.isspmatrix_csc"}
# Other calls measured to break on 2.13 (bench: a call in a compiled function, real arguments), and why.
UNSUPPORTED_CALLS = {
    # in-memory files (GB0156, measured on 2.13 at the making line or at the first method call): reported
    # where the file is made, which has to move out of compiled code
    "json.dumps": "GB0156", "json.loads": "GB0156", "io.StringIO": "GB0156", "io.BytesIO": "GB0156",
    # torch.jit.is_tracing() is traced (False); the private call it wraps is not
    "torch._C._is_tracing": "GB0208",
    "datetime.datetime.now": "GB0156", "datetime.datetime.utcnow": "GB0156", "datetime.date.today": "GB0156",
    "heapq.nlargest": "GB0059", "torch.Generator": "GB0363", "torch.get_num_threads": "GB0208",
    "torch.initial_seed": "GB0208", "torch.cuda.device_count": "GB0208",
    # backend probes (torch.cuda.is_available(), cuda.is_initialized() and cudnn.version() are traced)
    "torch.backends.mps.is_available": "GB0208", "torch.backends.mps.is_built": "GB0208",
    "torch.backends.cuda.is_built": "GB0208", "torch.backends.cudnn.is_available": "GB0208",
    "torch.backends.openmp.is_available": "GB0208", "torch.backends.mkl.is_available": "GB0208",
    "torch.backends.mkldnn.is_available": "GB0007",
    # context managers, measured as `with cm():` inside the compiled function
    "torch.autograd.detect_anomaly": "GB0008", "torch.autograd.set_detect_anomaly": "GB0008",
    "torch.autograd.graph.saved_tensors_hooks": "GB0008", "torch.autograd.set_multithreading_enabled": "GB0008",
    "torch.random.fork_rng": "GB0208", "torch.backends.cuda.sdp_kernel": "GB0208",
    "torch.backends.cudnn.flags": "GB0208", "torch.backends.mkldnn.flags": "GB0208",
    "contextlib.redirect_stdout": "GB0262", "contextlib.redirect_stderr": "GB0262",
    "torch.jit.trace": "GB0098", "globals": "GB0059",
    "torch._dynamo.config.patch": "GB0007", "unittest.mock.patch": "GB0007", "open": "GB0059",
    # stop 29's registry sweep: context managers Dynamo cannot enter
    "numpy.errstate": "GB0142", "torch.autograd.graph.save_on_cpu": "GB0008",
    # stop 30: queries of global state Dynamo does not trace (is_grad_enabled / get_default_dtype are traced)
    "torch.is_inference_mode_enabled": "GB0046", "torch.get_default_device": "GB0208",
    # stop 41's battery: C classes Dynamo cannot construct (2.13 and 2.14)
    "types.SimpleNamespace": "GB0147", "array.array": "GB0147",
}
# NumPy array makers whose `order=` (anything but "K", None included) torch._numpy refuses while Dynamo runs the
# graph (GB0087, measured on 2.13; np.zeros(..., order="C") and np.ascontiguousarray are traced).
NUMPY_ORDER_REFUSED = {"numpy.asarray", "numpy.array", "numpy.empty_like"}
# Builtins Dynamo cannot call (GB0059, measured on 2.13 and 2.14), and object() on 2.13 only (2.14 traces it).
BUILTINS_THAT_BREAK = {"bytearray": "GB0059", "memoryview": "GB0059"}
BUILTINS_THAT_BREAK_BEFORE = ("2.14", {"object": "GB0059"})
# The builtin pow() with a tensor operand: GB0059 on 2.13; 2.14 traces it (measured). `a ** b` is the same call.
POW_BREAKS_BEFORE = "2.14"
# Methods of a tensor's untyped_storage() Dynamo does not model (GB0156, measured on 2.13 and 2.14; size() and
# .device are traced).
STORAGE_METHODS_THAT_BREAK = {"data_ptr", "nbytes", "element_size"}
# object's own special methods reached through super() in a class of plain objects: Dynamo cannot call the C slot
# (GB0006, measured on 2.13 and 2.14; super().__init__(), __setattr__() and __getattribute__() are traced).
OBJECT_SLOTS_THROUGH_SUPER = {"__eq__", "__ne__", "__hash__", "__repr__", "__str__", "__dir__"}
# Tensor methods Dynamo refuses (stop 29's registry sweep, 2.13): negative sampling's random_(), resizing.
TENSOR_METHODS_REFUSED = {"random_": "GB0107", "resize_": "GB0126", "resize_as_": "GB0127", "set_": "GB0128"}
# Scripted modules: calling one kept on self breaks (GB4695, 2.13).
SCRIPTING = {"torch.jit.script", "torch.jit.trace", "torch.jit.freeze"}
# torch.Generator's methods: each call breaks (GB7650; manual_seed, initial_seed, get_state measured on 2.13).
GENERATOR_METHODS = {"manual_seed", "initial_seed", "seed", "get_state", "set_state", "graphsafe_get_state",
                     "graphsafe_set_state", "clone_state", "get_offset", "set_offset"}
# Tensor methods whose result Dynamo cannot keep (GB0208 "torch.* op returned non-Tensor"; is_inference
# GB0045, is_nonzero GB0033), measured on 2.13. is_contiguous(), is_complex(), dim(), numel() are traced.
TENSOR_METHODS_THAT_BREAK = {
    "is_conj", "is_inference", "is_neg", "is_nonzero", "is_pinned", "is_same_size", "is_set_to",
    "is_shared", "is_signed", "storage", "storage_offset",
}
# Calls of the generated list that other rules report (BL504: sparse tensors) or that have their own
# message above.
_REPORTED_ELSEWHERE = {"torch.sparse_coo_tensor"}
NP_SCALAR_NO_ARGS = {"rand", "randn", "random"}  # a scalar only when called without a size
NP_SCALAR_TWO_PARAMS = {"randint", "uniform", "normal"}  # (low, high) / (loc, scale), no size


def _np_random_break(node: ast.Call, qual: str) -> bool:
    if not qual.startswith("numpy.random.") or qual.count(".") != 2:
        return False
    name = qual.rsplit(".", 1)[1]
    if name in NP_ALWAYS:
        return True
    has_size = any(kw.arg == "size" for kw in node.keywords)
    if any(isinstance(a, ast.Starred) for a in node.args) or any(kw.arg is None for kw in node.keywords):
        return False
    if name in NP_SCALAR_NO_ARGS:
        return not node.args and not node.keywords
    if name in NP_SCALAR_TWO_PARAMS:
        return not has_size and len(node.args) <= 2
    return False


def _scripted(func: ast.Attribute, ctx) -> bool:
    """`self.enc(x)` where the class keeps a scripted module in `self.enc`: `torch.jit.script(nn.Linear(...))`
    (or trace / freeze) of an object made there. A scripted function is traced (the review of stop 29)."""
    values = held_values(func, ctx)
    return bool(values) and all(isinstance(v, ast.Call) and (ctx.qualify(v.func) or "") in SCRIPTING
                                and v.args and isinstance(v.args[0], ast.Call) for v in values)


def _attribute_dict_read(node: ast.Attribute, ctx) -> Optional[str]:
    """`self.cfg.scale` (or `cfg.scale` of a local) where the object kept in `self.cfg` is made by a class of this
    file whose __getattr__ is no function (`class AttrDict(dict): __getattr__ = dict.get`): GB0256 on 2.13 (stop 29's registry sweep)."""
    if not isinstance(node.ctx, ast.Load) or not isinstance(node.value, (ast.Attribute, ast.Name)) \
            or not ctx.file.memo(("BL502 mentions __getattr__ =",), lambda: "__getattr__ =" in ctx.file.source):
        return None
    if isinstance(node.value, ast.Name):  # `o = Attr(y=x * 2)` made here, then `o.y` (GB0256 too)
        value = ctx.reaching_value(node.value)
        values = [value] if value is not None else []
    else:
        values = held_values(node.value, ctx)
    classes = ctx.file.scopes.classes
    if not values or not all(isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id in classes
                             and _non_function_getattr(classes[v.func.id].node) for v in values):
        return None
    if node.attr in BUILTIN_METHODS or any(node.attr in _class_names(classes[v.func.id].node) for v in values):
        return None  # `cfg.keys()`, a method of the class: found without __getattr__ (measured: no break)
    return (f"{ctx.segment(node.value)} is an object whose __getattr__ is no function (`__getattr__ = dict.get`): "
            "reading an attribute of it breaks the graph (GB0256); read the values into plain attributes or a "
            "dict (`cfg[\"scale\"]`) outside compiled code")


def _class_names(class_node: ast.ClassDef) -> set[str]:
    """The names a class body binds (methods, class attributes)."""
    names = set()
    for stmt in class_node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(stmt.name)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def _non_function_getattr(class_node: ast.ClassDef) -> bool:
    return any(isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__getattr__" for t in stmt.targets)
               and not isinstance(stmt.value, ast.Lambda) for stmt in class_node.body)


def _storage(node: ast.AST) -> bool:
    """`x.untyped_storage()` / `x.storage()`: a storage, whose resize_ is not the tensor's."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
        and node.func.attr in ("untyped_storage", "storage", "_typed_storage")


def _dict_or_list(node: ast.AST, ctx) -> bool:
    """A dict or list display (or comprehension, or `dict(...)` / `list(...)`), or a local whose reaching
    value is one."""
    if isinstance(node, ast.Name):
        node = ctx.reaching_value(node)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("dict", "list") \
            and not ctx.file.imports.is_bound(node.func.id):
        return True
    return isinstance(node, (ast.Dict, ast.List, ast.DictComp, ast.ListComp))


def _holds_tensor(node: ast.AST, ctx) -> bool:
    if ctx.is_tensor(node):
        return True
    if isinstance(node, (ast.List, ast.Tuple)):
        return any(ctx.is_tensor(e) for e in node.elts)
    return False


def _tensor_texts(ctx) -> frozenset:
    """Locals of the traced function every value of which is a string formatted from a tensor (`f"{x.sum()}"`,
    `"{:.3f}".format(t)`): Dynamo builds such a string lazily, and any use of its text breaks (measured on 2.13:
    len() GB0088, `in` GB4411, == and + too, its methods GB0156); storing or returning it does not."""
    env, scope = ctx.env, ctx.scope
    if env is None or scope is None:
        return frozenset()

    def collect() -> frozenset:
        return frozenset(name for name, definitions in env.definitions.items()
                         if definitions and all(_formats_tensor(value, ctx) for _, value in definitions))
    return ctx.file.memo(("BL502 tensor texts", id(scope)), collect)


def _formats_tensor(value, ctx) -> bool:
    if isinstance(value, ast.JoinedStr):
        # a conversion (`!r`, `!s`) formats at once: that line breaks instead (GB0569)
        return any(isinstance(v, ast.FormattedValue) and v.conversion == -1 and ctx.is_tensor(v.value)
                   for v in value.values)
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "format" \
        and isinstance(value.func.value, ast.Constant) and isinstance(value.func.value.value, str) \
        and any(ctx.is_tensor(a) for a in [*value.args, *(k.value for k in value.keywords)])


def tensor_text_use(node: ast.AST, ctx) -> Optional[str]:
    """The use of a tensor-formatted string's text that breaks (see _tensor_texts), as a message, or None."""
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name) and func.id == "len" and len(node.args) == 1 \
                and isinstance(node.args[0], ast.Name) and not ctx.file.imports.is_bound("len"):
            name = node.args[0].id
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            name = func.value.id
        else:
            return None
    elif isinstance(node, ast.Compare):
        if len(node.ops) != 1:
            return None
        op, left, right = node.ops[0], node.left, node.comparators[0]
        sides = [right] if isinstance(op, (ast.In, ast.NotIn)) else [left, right] \
            if isinstance(op, (ast.Eq, ast.NotEq)) else []
        name = next((s.id for s in sides if isinstance(s, ast.Name)), None)
        if name is None:
            return None
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        name = next((s.id for s in (node.left, node.right) if isinstance(s, ast.Name)), None)
        if name is None:
            return None
    else:
        return None
    if name not in _tensor_texts(ctx):
        return None
    return f"`{name}` is a string formatted from a tensor value, which Dynamo builds lazily: using its text here " \
           "breaks the graph (GB0088 for len(), GB4411 for `in`, GB0156 for its methods); format it outside " \
           "compiled code, or keep the number a tensor"


def _made_with_tensor(node: ast.AST, ctx) -> bool:
    """An object of a class of this file built with a tensor argument (`Out(x, x * 2)`), spelled here or the one
    reaching value of a local."""
    if isinstance(node, ast.Name):
        node = ctx.reaching_value(node)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ctx.file.scopes.classes \
        and any(ctx.is_tensor(a) for a in [*node.args, *(k.value for k in node.keywords)])


def _held_module(node: ast.AST, ctx) -> bool:
    """`self.lin` where every value the class gives it is an nn.Module built there: a torch.nn class
    (`nn.Linear(4, 4)`, `nn.Sequential(...)`) or a module class of this file (measured on 2.13: deepcopy of
    each breaks, even nn.ReLU)."""
    values = held_values(node, ctx) if isinstance(node, ast.Attribute) else []
    classes = ctx.file.scopes.classes
    return bool(values) and all(
        isinstance(v, ast.Call) and (is_module_base(normalize_torch(ctx.qualify(v.func)) or "")
                                     or isinstance(v.func, ast.Name) and v.func.id in classes
                                     and classes[v.func.id].is_module)
        for v in values)


def _shows_tensor(node: ast.AST, ctx) -> bool:
    """What repr() would print a tensor of: a tensor, or a list / tuple / dict display holding one, spelled
    there or the one reaching value of a local (`d = {"a": x}; repr(d)`: GB0569, measured on 2.13)."""
    if isinstance(node, ast.Name):
        value = ctx.reaching_value(node)
        if isinstance(value, (ast.List, ast.Tuple, ast.Dict)):
            node = value
    if isinstance(node, ast.Dict):
        return any(ctx.is_tensor(v) for v in node.values)
    return _holds_tensor(node, ctx)


def grad_fn_read(node: ast.Attribute, ctx) -> Optional[str]:
    """`h.grad_fn.name()`, `h.grad_fn.next_functions`: code that reads an attribute of a tensor's grad_fn
    expects one, and Dynamo cannot trace a tensor that has a grad_fn there (GB0104, measured on 2.13; a bare
    `h.grad_fn is None` test breaks only when h requires grad, which is not known here, so it is left out)."""
    value = node.value
    if not isinstance(node.ctx, ast.Load) or not isinstance(value, ast.Attribute) or value.attr != "grad_fn" \
            or not ctx.is_tensor(value.value):
        return None
    return f"reading {ctx.segment(node)} needs the autograd node of a tensor, which Dynamo cannot trace (GB0104): " \
           "the graph breaks here; inspect grad_fn outside compiled code"


def _plain_type(node: ast.AST) -> bool:
    """A class spelled by name (`torch.Tensor`, `SparseTensor`) or a tuple of them: what the builtin
    isinstance accepts. `List[int]` and other typing forms are what torch.jit.isinstance is for."""
    if isinstance(node, ast.Tuple):
        return bool(node.elts) and all(_plain_type(e) for e in node.elts)
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _passes_generator(node: ast.Call, ctx, qual: str) -> bool:
    """`torch.randn(..., generator=g)` / `x.normal_(generator=g)` with g not the constant None."""
    keyword = next((kw for kw in node.keywords if kw.arg == "generator"), None)
    if keyword is None or isinstance(keyword.value, ast.Constant) and keyword.value.value is None:
        return False
    if isinstance(keyword.value, ast.Name) and keyword.value.id in _none_default_parameters(ctx):
        return False  # `generator=generator`, a parameter that defaults to None: traced then (measured on 2.13)
    return qual.startswith("torch.") or isinstance(node.func, ast.Attribute) and ctx.is_tensor(node.func.value)


def _generator_method(node: ast.Call, ctx) -> bool:
    """A method of a torch.Generator kept between calls (a module-level name, `self.gen`) or made in the
    function: every one breaks (measured on 2.13: manual_seed, initial_seed, get_state)."""
    func = node.func
    if not isinstance(func, ast.Attribute) or func.attr not in GENERATOR_METHODS \
            or not ctx.file.memo(("BL502", "mentions Generator"), lambda: "Generator" in ctx.file.source):
        return False
    values = held_values(func.value, ctx)
    if not values and isinstance(func.value, ast.Name):
        value = ctx.reaching_value(func.value)
        values = [value] if value is not None else []
    return bool(values) and all(isinstance(v, ast.Call) and normalize_torch(ctx.qualify(v.func)) == "torch.Generator"
                                for v in values)


def _none_default_parameters(ctx) -> set[str]:
    """Parameters of the traced function whose default is None."""
    return {a.arg for a, d in parameter_defaults(ctx.scope.func.args)
            if isinstance(d, ast.Constant) and d.value is None}


def _module_functions(ctx) -> set[str]:
    """Names a module-level `def` binds and nothing else at module level rebinds."""
    def collect() -> set[str]:
        defined, rebound = set(), set()
        for stmt in ctx.file.tree.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                defined.add(stmt.name)
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.ClassDef, ast.Import, ast.ImportFrom)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)]
                rebound.update(t.id for t in targets if isinstance(t, ast.Name))
                if isinstance(stmt, ast.ClassDef):
                    rebound.add(stmt.name)
        return defined - rebound
    return ctx.file.memo(("BL502", "module functions"), collect)


def function_attribute_store(node: ast.Attribute, ctx) -> Optional[str]:
    """`helper.calls = 1` on a module-level function: Dynamo cannot set attributes on a function
    object (GB0467, measured on 2.13; a function defined in the traced frame itself is fine)."""
    if not isinstance(node.ctx, ast.Store) or not isinstance(node.value, ast.Name):
        return None
    name = node.value.id
    if name not in _module_functions(ctx) or ctx.scope is None or name in local_names(ctx):
        return None
    return f"setting an attribute on the function `{name}` breaks the graph (GB0467); keep the state in a " \
           "dict or on a module, or update it outside compiled code"


def _optional_key_typeddicts(ctx) -> frozenset[str]:
    """TypedDicts with optional keys this file defines or imports from another file of the tree:
    constructing one in traced code breaks (GB0257, measured on 2.13; analysis/type_facts.py)."""
    own = ctx.file.memo(("BL502", "optional TypedDicts"),
                        lambda: module_optional_typeddicts(ctx.file.tree, ctx.file.imports))
    return own | ctx.file.optional_typeddicts


def _validating(node: ast.Call, ctx, qual: str) -> Optional[str]:
    """`Normal(loc, scale, validate_args=True)` built in traced code, or the class-wide switch turned on:
    validation calls constraints.is_dependent, which Dynamo skips (GB0007), then branches on the sample in
    log_prob (GB0170); the switch itself is a setattr on a class (GB0467). Measured on 2.13; the default
    (validation on unless `python -O`) and `validate_args=False` are traced."""
    if not ctx.file.memo(("BL502 validate_args",), lambda: "validate_args" in ctx.file.source):
        return None
    if qual.endswith(".set_default_validate_args") and qual.startswith("torch.distributions.") \
            and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value is True:
        return "turning torch.distributions' validation on in compiled code breaks the graph (GB0467), and every " \
               "distribution built after it breaks again; set it once outside compiled code"
    if normalize_torch(qual) in DISTRIBUTION_CLASSES and any(
            kw.arg == "validate_args" and isinstance(kw.value, ast.Constant) and kw.value.value is True
            for kw in node.keywords):
        return "validate_args=True makes the distribution check its arguments with a function Dynamo skips " \
               "(GB0007) and its samples in log_prob (GB0170): the graph breaks; validate outside compiled " \
               "code, or pass validate_args=False here"
    return None


def _compiled_object(func: ast.AST, ctx) -> Optional[str]:
    """`w.wavefun(2)` after `w = pywt.Wavelet("db2")` in the function: the library whose object every
    binding of the local makes (measured on 2.13: the method call breaks, GB0156; reading `w.dec_lo` does not)."""
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and ctx.scope is not None
            and ctx.file.memo(("BL502 object libraries",),
                              lambda: any(name in ctx.file.source for name in _OBJECT_LIBRARIES))):
        return None
    values = ctx.file.scopes.local_values_of(ctx.scope.func).get(func.value.id)
    roots = {(ctx.qualify(value.func) or "").split(".")[0] if isinstance(value, ast.Call) else "" for value in values or ()}
    return roots.pop() if len(roots) == 1 and roots <= set(_OBJECT_LIBRARIES) else None


# Libraries whose objects' methods break when called in traced code: compiled ones (GB0156) and those on Dynamo's
# skip list (`bar = tqdm(total=n, disable=True); bar.update()`: GB0008, measured on 2.13; deepinv's iterations).
_OBJECT_LIBRARIES = tuple(COMPILED_LIBRARIES) + tuple(sorted(SKIPPED_LIBRARIES))


_EXIT_STACKS = ("contextlib.ExitStack", "contextlib.AsyncExitStack")


def _exit_stacks(ctx) -> set[str]:
    """Local names of the traced function bound to a contextlib.ExitStack (`with ExitStack() as stack`,
    `stack = ExitStack()`): measured on 2.13, `stack.enter_context(cm)` breaks (GB0007, a function of
    contextlib that Dynamo skips); the bare `with ExitStack():` and `stack.callback(f)` are traced."""
    if ctx.scope is None:
        return set()
    func = ctx.scope.func

    def find() -> set[str]:
        names = set()
        for node in ast.walk(func):
            if isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Name) \
                    and isinstance(node.context_expr, ast.Call) and ctx.qualify(node.context_expr.func) in _EXIT_STACKS:
                names.add(node.optional_vars.id)
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                    and ctx.qualify(node.value.func) in _EXIT_STACKS:
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        return names

    return ctx.file.memo(("BL502 exit stacks", id(func)), find) if "ExitStack" in ctx.file.source else set()


def _builtin_called(func: ast.AST, ctx) -> Optional[str]:
    """The builtin a bare name calls: not imported, defined at module level or bound in the function."""
    if not isinstance(func, ast.Name) or ctx.scope is None or ctx.file.imports.is_bound(func.id) \
            or func.id in ctx.file.scopes.functions or func.id in ctx.file.scopes.classes or func.id in local_names(ctx) \
            or ctx.file.imports.stars or func.id in ctx.file.memo(("BL502 module bindings",),
                                                                   lambda: frozenset(ctx.file.scopes.module_bindings())) \
            or func.id in ctx.file.scopes.enclosing_names(ctx.scope.func):
        return None  # (`pow = torch.pow` at module level, `from torch import *`, a closure's `pow`)
    return func.id


def _tensor_pow(node: ast.Call, ctx) -> bool:
    """`pow(x, 2)` / `pow(2.0, x)` with a tensor operand (the three-argument form fails on tensors eagerly)."""
    return len(node.args) == 2 and not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args) \
        and any(ctx.is_tensor(a) for a in node.args)


def _object_slot_through_super(node: ast.Call, ctx) -> Optional[str]:
    """`super().__eq__(other)` in a method of a class of this file whose bases, at any depth in this file, are
    only `object` and define no such method: object's C slot runs."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr in OBJECT_SLOTS_THROUGH_SUPER
            and isinstance(func.value, ast.Call) and isinstance(func.value.func, ast.Name)
            and func.value.func.id == "super" and ctx.scope is not None):
        return None
    classes = ctx.file.scopes.classes
    pending, seen = [ctx.scope.qualname.split(".")[0]], set()
    first = True
    while pending:
        name = pending.pop()
        info = classes.get(name)
        if name in seen or info is None:
            return None
        if not first and func.attr in info.methods:
            return None  # a Python method of a base of this file runs
        seen.add(name)
        first = False
        for base in info.bases:
            if base not in ("object", "builtins.object"):
                pending.append(base)
    return func.attr


def _numpy_break(qual: str) -> Optional[str]:
    """NumPy functions Dynamo cannot run through torch._numpy (generated, NUMPY_UNTRACED: GB0294) and functions
    of NumPy's other submodules (`np.testing`, `np.polynomial`, `np.ma`: skipped, GB0007). Measured on 2.13."""
    if not qual.startswith("numpy."):
        return None
    if qual in NUMPY_UNTRACED:
        return f"{qual}() has no torch._numpy counterpart, so Dynamo cannot trace it (GB0294): the graph breaks " \
               "here; call it outside compiled code, or use a NumPy or torch function Dynamo traces"
    module = qual.rsplit(".", 1)[0]
    if any(module == skipped or module.startswith(skipped + ".") for skipped in NUMPY_SKIPPED_MODULES):
        return f"{qual}() is NumPy code Dynamo skips (GB0007): the graph breaks here and the call runs eagerly; " \
               "call it outside compiled code"
    return None


def _builtin_break(node: ast.Call, ctx) -> Optional[str]:
    name = _builtin_called(node.func, ctx)
    if name is None:
        return None
    gb = BUILTINS_THAT_BREAK.get(name)
    if gb is None and before(ctx.torch_version, BUILTINS_THAT_BREAK_BEFORE[0]):
        gb = BUILTINS_THAT_BREAK_BEFORE[1].get(name)
    if gb is not None:
        return f"the builtin {name}() cannot be traced by Dynamo ({gb}): the graph breaks here; make the object " \
               "outside compiled code and pass it in"
    if name == "pow" and before(ctx.torch_version, POW_BREAKS_BEFORE) and _tensor_pow(node, ctx):
        return "the builtin pow() of a tensor cannot be traced by Dynamo before torch 2.14 (GB0059): the graph " \
               "breaks here; write `a ** b` (the same call) or torch.pow"
    return None


def untraceable(node: ast.Call, ctx) -> Optional[str]:
    """What is wrong with this call, as a message, or None."""
    func = node.func
    builtin = _builtin_break(node, ctx)
    if builtin is not None:
        return builtin
    slot = _object_slot_through_super(node, ctx)
    if slot is not None:
        return f"super().{slot}() here is object's C slot, which Dynamo cannot call (GB0006): the graph breaks " \
               "wherever traced code runs this method; compare, hash or format the fields themselves instead"
    if isinstance(func, ast.Attribute) and func.attr == "groupdict" and not node.args \
            and not ctx.is_tensor(func.value):
        # a regex match's groupdict() (group(), groups() and span() are traced; measured on 2.13, piq's version parse)
        return "a regex match's .groupdict() returns a dict Dynamo cannot build from the match (GB0292): the " \
               "graph breaks here; use .group(name) for each field, or parse outside compiled code"
    if isinstance(func, ast.Attribute) and func.attr in STORAGE_METHODS_THAT_BREAK and _storage(func.value) \
            and func.value.func.attr == "untyped_storage":
        return f"{ctx.segment(func)}() is a method of a storage that Dynamo does not model (GB0156): the graph " \
               "breaks here; read it outside compiled code"
    qual = ctx.qualify(func) or ""
    if qual.split(".")[0] in ("random", "copy", "globals") and ctx.scope is not None \
            and root_name(func) in local_names(ctx):
        qual = ""  # a local `random = Picker()`: not the module
    if isinstance(func, ast.Name) and func.id in _optional_key_typeddicts(ctx):
        return f"constructing the TypedDict `{func.id}`, which has optional keys, breaks the graph (GB0257); " \
               "build a plain dict literal instead"
    if _generator_method(node, ctx):
        return f"calling .{node.func.attr}() on a torch.Generator breaks the graph (GB7650); seed and read generators " \
               "outside compiled code"
    if _passes_generator(node, ctx, qual):
        return "passing a torch.Generator (`generator=`) breaks the graph when one is passed (GB0055); draw " \
               "the noise outside compiled code and pass it in, or use the global RNG (torch.manual_seed)"
    if qual in CLOCKS:
        return f"{qual}() is skipped by Dynamo and breaks the graph; time outside the compiled " \
               "region (or use torch.cuda.Event / the profiler)"
    if qual == "torch.jit.isinstance":
        # GB0007: Dynamo developers marked it skipped (measured on 2.13); the builtin is traced.
        return "torch.jit.isinstance() is skipped by Dynamo and breaks the graph; use the builtin isinstance()"
    if qual in SEEDS:
        return f"{qual}() breaks the graph; seed once before calling the compiled code"
    if qual.split(".")[0] in SKIPPED_LIBRARIES and qual.count(".") >= 1:
        return f"{qual}() is in {qual.split('.')[0]}, a package Dynamo never traces (GB0007): the graph breaks here, " \
               "a disabled progress bar too; call it outside compiled code"
    if qual.split(".")[0] in COMPILED_LIBRARIES and qual.count(".") >= 1 and qual not in PURE_PYTHON_CALLS:
        return f"{qual}() runs {qual.split('.')[0]}'s compiled code, which Dynamo cannot trace (GB0156 / GB0157): the " \
               "graph breaks here; call it outside compiled code and pass the result in (or use a torch op)"
    if qual.split(".")[0] in ("numpy", "np") and any(
            k.arg == "dtype" and (isinstance(k.value, ast.Name) and k.value.id == "object"
                                  or (ctx.qualify(k.value) or "") in ("numpy.object_", "np.object_"))
            for k in node.keywords):
        # torch._numpy has no object dtype (measured on 2.13: np.empty / np.array(..., dtype=object), GB0055)
        return f"{qual}(..., dtype=object) makes a numpy array of Python objects, which Dynamo cannot trace " \
               "(GB0055): the graph breaks here; keep a list, or build it outside compiled code"
    validating = _validating(node, ctx, qual)
    if validating is not None:
        return validating
    if isinstance(func, ast.Attribute) and func.attr == "enter_context" and isinstance(func.value, ast.Name) \
            and func.value.id in _exit_stacks(ctx):
        return "ExitStack.enter_context() runs contextlib code Dynamo skips (GB0007): the graph breaks here, and " \
               "inside the `with` the whole function runs eagerly; enter the context manager in a `with` of its " \
               "own (`with (torch.no_grad() if cond else contextlib.nullcontext()):`)"
    if isinstance(func, ast.Attribute) and func.attr in MODULE_HOOK_REGISTRATION and not ctx.is_known_non_tensor(func.value) \
            and not ctx.is_tensor(func.value):
        return f".{func.attr}() in traced code breaks the graph (\"setattr() on unsupported type\", in torch's " \
               "RemovableHandle): register hooks once, outside the compiled region"
    library = _compiled_object(func, ctx)
    if library is not None and library in COMPILED_LIBRARIES:
        return f".{func.attr}() of an object {library} made runs compiled code Dynamo cannot trace (GB0156): the " \
               "graph breaks here; compute it outside compiled code and pass the result in"
    if library is not None:
        return f".{func.attr}() of an object {library} made runs {library}'s code, which Dynamo skips (GB0008): the " \
               "graph breaks here, a disabled progress bar too; keep the object out of compiled code"
    if qual in UNSUPPORTED_CALLS and (qual not in ("open", "globals") or not ctx.file.imports.is_bound(qual)):
        return f"{qual}() cannot be traced by Dynamo ({UNSUPPORTED_CALLS[qual]}): the graph breaks here; " \
               "call it outside compiled code and pass the result in"
    numpy = _numpy_break(qual)
    if numpy is not None:
        return numpy
    if qual in NUMPY_ORDER_REFUSED and any(kw.arg == "order" and not (isinstance(kw.value, ast.Constant)
                                                                      and kw.value.value == "K") for kw in node.keywords):
        return f"{qual}(..., order=...) has no traced form in torch._numpy (GB0087): the graph breaks here; " \
               "drop `order=` (a tensor's memory layout is torch's to choose) or convert outside compiled code"
    if qual and (qual[0] == "." or "." in qual) and qual.split(".")[0] not in ("torch", "numpy", "math"):
        compiled = compiled_module_of(qual, ctx.file.path)
        if compiled is not None:
            return f"{qual.rsplit('.', 1)[1]}() is a function of the compiled extension {compiled}, which Dynamo " \
                   "cannot trace (GB0156): the graph breaks here; call it outside compiled code and pass the result in"
    if isinstance(func, ast.Attribute) and func.attr in TENSOR_METHODS_REFUSED and not qual.startswith("torch.") \
            and not _storage(func.value) \
            and (ctx.is_tensor(func.value) or func.attr != "set_" and not ctx.is_known_non_tensor(func.value)):
        return f"Tensor.{func.attr}() is not supported by Dynamo ({TENSOR_METHODS_REFUSED[func.attr]}): the graph breaks " \
               "here; " + ("draw with torch.randint" if func.attr == "random_" else "make a tensor of the size needed")
    if isinstance(func, ast.Attribute) and ctx.file.memo(("BL502 mentions jit",), lambda: "jit." in ctx.file.source) \
            and _scripted(func, ctx):
        return f"{ctx.segment(func)} holds a TorchScript module, which Dynamo cannot trace (GB4695): the graph breaks " \
               "here; keep the plain module (script the compiled model as a whole instead, or not at all)"
    if isinstance(func, ast.Attribute) and func.attr in TENSOR_METHODS_THAT_BREAK and ctx.is_tensor(func.value):
        return f".{func.attr}() gives a Python value Dynamo cannot keep in the graph, which breaks here; " \
               "read it outside compiled code"
    if qual in SKIPPED_STDLIB or (qual in SKIPPED_TORCH_FUNCTIONS and qual not in _REPORTED_ELSEWHERE):
        return f"{qual}() is on Dynamo's skip list: the graph breaks here and the call runs eagerly; " \
               "call it outside compiled code and pass the result in"
    if qual in RANDOM_SKIPPED or (qual in RANDOM_SKIPPED_BEFORE[1] and before(ctx.torch_version, RANDOM_SKIPPED_BEFORE[0])):
        return f"{qual}() is on Dynamo's skip list: the graph breaks here and the call runs eagerly; draw with " \
               "torch's RNG (torch.rand, torch.randint, torch.randperm, torch.multinomial) instead"
    if _np_random_break(node, qual):
        return f"np.random.{qual.rsplit('.', 1)[1]}() breaks the graph here; use torch's RNG " \
               "(torch.rand, torch.randint, torch.randperm)"
    if qual == "copy.deepcopy" and node.args and _holds_tensor(node.args[0], ctx):
        return "copy.deepcopy() of a tensor breaks the graph; use .clone()"
    if qual in ("dataclasses.asdict", "dataclasses.astuple") and len(node.args) == 1 \
            and _made_with_tensor(node.args[0], ctx):
        # both deep-copy every field that is not a dataclass (GB4198, measured on 2.13; ints only: traced)
        return f"{qual}() deep-copies the tensors the object holds, which breaks the graph (GB4198); read the " \
               "fields directly (`o.a`, `o.b`) or build the dict / tuple by hand"
    if qual == "copy.deepcopy" and node.args and _held_module(node.args[0], ctx):
        # its parameters are tensors (GB4198); a module without any runs copy's skipped internals (GB0008)
        return f"copy.deepcopy() of the module {ctx.segment(node.args[0])} breaks the graph (GB4198); make the " \
               "copy once, outside compiled code (in __init__, or before an EMA / target-network update)"
    if qual == "copy.copy" and node.args and ctx.is_tensor(node.args[0]):
        return "copy.copy() of a tensor breaks the graph; use the tensor itself or .clone()"
    if qual == "copy.copy" and len(node.args) == 1 and _dict_or_list(node.args[0], ctx):
        # copy.copy runs the builtin dict.copy / list.copy, which Dynamo skips (GB0007, measured on 2.13)
        return "copy.copy() of a dict or list breaks the graph (GB0007); use d.copy(), dict(d) or list(xs)"
    if isinstance(func, ast.Attribute) and func.attr == "apply_" and ctx.is_tensor(func.value):
        return ".apply_() runs a Python callable on each element, which Dynamo cannot trace (GB0055); use " \
               "tensor operations"
    if isinstance(func, ast.Name) and func.id in ("repr", "str") and len(node.args) == 1 \
            and not node.keywords and not ctx.file.imports.is_bound(func.id) \
            and (ctx.is_tensor(node.args[0]) or func.id == "repr" and _shows_tensor(node.args[0], ctx)):
        return f"{func.id}() of a tensor needs its values and breaks the graph; format it outside " \
               "compiled code or guard it with `if not torch.compiler.is_compiling():`"
    if isinstance(func, ast.Attribute) and func.attr == "data_ptr" and not node.args \
            and isinstance(ctx.parent, (ast.Compare, ast.BinOp)) and not ctx.is_known_non_tensor(func.value):
        # Reading data_ptr() is traced; comparing it breaks (GB5976), arithmetic on it skips the frame.
        return "comparing or computing with .data_ptr() breaks the graph; compare tensors with " \
               "`a is b` or track aliasing outside compiled code"
    return None


_PRIMARIES = (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.List, ast.Tuple, ast.Dict, ast.Set,
              ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _power_operand(node: ast.AST, ctx, base: bool) -> str:
    """An operand's text for `a ** b`, parenthesised unless it binds tighter: a primary (or a non-negative
    number) as the base; also a unary minus of one as the exponent (`x ** -y`)."""
    text = ctx.segment(node)
    simple = isinstance(node, _PRIMARIES) or isinstance(node, ast.Constant) and not (
        isinstance(node.value, (int, float)) and node.value < 0)
    if not base and isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd, ast.Invert)) \
            and isinstance(node.operand, (*_PRIMARIES, ast.Constant)):  # not `not y`: `x ** not y` does not parse
        simple = True
    return text if simple and "\n" not in text else f"({text})"


class UntraceableCall(Rule):
    code = "BL502"
    name = "untraceable-call"
    summary = ("calls Dynamo skips or cannot trace (its skip list, clocks, seeding, NumPy scalar RNG, deepcopy/repr "
               "of tensors, data_ptr() comparisons, generator=, json, some context managers) break the graph")
    gb_ids = ("GB0007", "GB0033", "GB0294", "GB4198", "GB0208", "GB0569", "GB0059", "GB5976", "GB0088",
              "GB0156", "GB0363", "GB0045", "GB0008", "GB0262", "GB0055", "GB0467", "GB0257", "GB7650",
              "GB0098", "GB0107", "GB0126", "GB0127", "GB0128", "GB0142", "GB4695", "GB0256", "GB0046", "GB0104", "GB4411",
              "GB0157", "GB0170", "GB0147", "GB8977", "GB0006", "GB0087", "GB0292")
    fix_availability = "sometimes"
    fix_applicability = "safe"  # torch.jit.isinstance(x, T) -> isinstance(x, T); pow(a, b) of a tensor -> a ** b
    node_types = (ast.Call, ast.Attribute, ast.FormattedValue, ast.Compare, ast.BinOp, ast.ClassDef)
    # 2.13: every sub-pattern measured on CPU (np.random with numpy installed). 2.11 and 2.15 come
    # from the team's measured catalogue (kept outside this repository) for clocks, manual_seed,
    # deepcopy of a tensor, repr and data_ptr.
    # random.random(), shuffle, sample and seed break on 2.13 but not on 2.14 (measured) or 2.15
    # (catalogue): reported only when the target torch (--target-torch) is older than 2.14.
    verdicts = {"2.11": True, "2.13": True, "2.15": True}

    def check(self, node, ctx) -> None:
        if isinstance(node, ast.ClassDef):
            # a class statement calls __build_class__ with the body as a function (GB8977, measured on 2.13 and
            # 2.14, a dataclass too); the engine sends only those inside traced functions
            ctx.report(node, f"defining the class {node.name} inside compiled code breaks the graph (GB8977): "
                             "define it at module level")
            return
        if isinstance(node, ast.Attribute):
            message = function_attribute_store(node, ctx) or _attribute_dict_read(node, ctx) or grad_fn_read(node, ctx)
            if message is not None:
                ctx.report(node, message)
            return
        if isinstance(node, (ast.Compare, ast.BinOp)):
            message = tensor_text_use(node, ctx)
            if message is not None:
                ctx.report(node, message)
            return
        if isinstance(node, ast.FormattedValue):
            # f"{t!r}" is repr(t) (GB0569, measured on 2.13); f"{t}" and f"{t:.3f}" are built lazily and traced
            if node.conversion == ord("r") and _shows_tensor(node.value, ctx):
                ctx.report(node, "`!r` of a tensor in an f-string is repr(), which needs its values and breaks "
                                 "the graph (GB0569); format it outside compiled code")
            return
        message = untraceable(node, ctx) or tensor_text_use(node, ctx)
        if message is not None:
            ctx.report(node, message, self._fix(node, ctx))

    @staticmethod
    def _fix(node: ast.Call, ctx) -> Optional[Fix]:
        """torch.jit.isinstance(x, T) with a plain class T means isinstance(x, T) in eager Python; the builtin
        pow(a, b) is `a ** b` (both call a.__pow__(b), then b.__rpow__(a))."""
        if _builtin_called(node.func, ctx) == "pow" and _tensor_pow(node, ctx):
            base, exponent = (_power_operand(a, ctx, base=i == 0) for i, a in enumerate(node.args))
            text = f"{base} ** {exponent}"
            parent = ctx.parent
            if isinstance(parent, (ast.Attribute, ast.Subscript)) and parent.value is node \
                    or isinstance(parent, ast.Call) and parent.func is node \
                    or isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Pow) and parent.left is node:
                text = f"({text})"  # `pow(x, 2).sum()`, `pow(x, 2)[0]`, `pow(x, 2) ** 3`: the call bound tighter
            return replace_fix("write `a ** b`", "safe", (Edit(ctx.start(node), ctx.end(node), text),))
        if (ctx.qualify(node.func) or "") != "torch.jit.isinstance" or len(node.args) != 2 or node.keywords \
                or not _plain_type(node.args[1]) or ctx.file.imports.is_bound("isinstance"):
            return None
        return replace_fix("use the builtin isinstance()", "safe",
                           (Edit(ctx.start(node.func), ctx.end(node.func), "isinstance"),))

    VALID = [
        Example("""
from typing import Optional

import torch
from torch import nn


class Noisy(nn.Module):
    def forward(self, x, generator: Optional[torch.Generator] = None):
        return x + torch.randn(x.shape, generator=generator)   # left at None: traced


def factory():
    return Noisy(), (torch.randn(4),)
"""),
        Example("""
import copy
import time

import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        cfg = copy.deepcopy({"scale": 2})   # no tensor inside: traced
        label = f"shape {x.shape}"           # f-strings do not break
        y = x.view(-1)
        ptr = y.data_ptr()                   # reading it is fine; comparing it is not
        return y * cfg["scale"], label, ptr


def timed(model, x):
    start = time.perf_counter()              # outside traced code: fine
    model(x)
    return time.perf_counter() - start


def factory():
    return Net(), (torch.randn(4),)
"""),
    ]
    INVALID = [
        Example("""
from typing import TypedDict

import torch
from torch import nn


class Options(TypedDict, total=False):
    scale: float


def helper(x):
    return x


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.gen = torch.Generator().manual_seed(0)

    def forward(self, x):
        opts = Options(scale=2.0)
        noise = torch.randn(4, generator=self.gen)
        helper.calls = 1
        return x * opts["scale"] + noise


def factory():
    return Net(), (torch.randn(4),)
""", at=((22, 16), (23, 17), (24, 9))),
        Example("""
import heapq
import json

import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        y = x * 2
        text = json.dumps({"scale": 2})
        gen = torch.Generator()
        best = heapq.nlargest(1, [3, 1, 2])
        offset = y.storage_offset()
        with torch.random.fork_rng():
            y = y + torch.rand(4)
        return y + offset, text, gen, best


def factory():
    return Net(), (torch.randn(4),)
""", at=((12, 16), (13, 15), (14, 16), (15, 18), (16, 14))),
        Example("""
import os

import torch
from torch import nn
from torch.distributions import constraints
from torch.nn.utils.rnn import pack_padded_sequence


class Net(nn.Module):
    def forward(self, x, lengths):
        y = x * 2
        packed = pack_padded_sequence(y, lengths, batch_first=True)
        if constraints.is_dependent(constraints.real):
            y = y + 1
        if os.path.exists("/nonexistent/breaklint"):
            y = y - 1
        return y, packed


def factory():
    return Net(), (torch.randn(2, 3, 4), torch.tensor([3, 2]))
""", at=((13, 18), (14, 12), (16, 12))),
        Example("""
import time

import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        start = time.perf_counter()
        y = x * 2
        return y, start


def factory():
    return Net(), (torch.randn(4),)
""", at=((10, 17),)),
        Example("""
import torch


@torch.compile
def noisy(x):
    y = x * 2
    torch.manual_seed(0)
    return y + torch.randn_like(y)


def factory():
    return noisy, (torch.randn(4),)
""", at=((8, 5),)),
        Example("""
import copy

import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        y = x + 1
        snapshot = copy.deepcopy(y)
        text = repr(y)
        return snapshot * 2, text


def factory():
    return Net(), (torch.randn(4),)
""", at=((11, 20), (12, 16))),
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        y = x.view(-1)
        if y.data_ptr() == x.data_ptr():
            return y * 2
        return y


def factory():
    return Net(), (torch.randn(4),)
""", at=((9, 12), (9, 28))),
        # Not runnable: numpy is not a breaklint dependency.
        Example("""
import numpy as np
import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        y = x + 1
        jitter = np.random.uniform(0.0, 0.1)
        return y * (1 + jitter)
""", runnable=False, at=((10, 18),)),
        Example("""
import torch
from torch import nn


class Skip(nn.Module):
    def forward(self, x, extra=None):
        if extra is not None and torch.jit.isinstance(extra, torch.Tensor):
            x = x + extra
        return x * 2


def factory():
    return Skip(), (torch.randn(4), torch.randn(4))
""", fixed="""
import torch
from torch import nn


class Skip(nn.Module):
    def forward(self, x, extra=None):
        if extra is not None and isinstance(extra, torch.Tensor):
            x = x + extra
        return x * 2


def factory():
    return Skip(), (torch.randn(4), torch.randn(4))
""", at=((8, 34),)),
        Example("""
import torch
from torch import nn


class Gain(nn.Module):
    def forward(self, x):
        return pow(x, 2) + 1


def factory():
    return Gain(), (torch.randn(4),)
""", fixed="""
import torch
from torch import nn


class Gain(nn.Module):
    def forward(self, x):
        return x ** 2 + 1


def factory():
    return Gain(), (torch.randn(4),)
""", at=((8, 16),)),
        Example("""
import torch
from torch import nn


class Local(nn.Module):
    def forward(self, x):
        class Out:
            pass
        out = Out()
        out.y = x * 2
        return out.y


def factory():
    return Local(), (torch.randn(4),)
""", at=((8, 9),)),
    ]
