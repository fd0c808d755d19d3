"""Write analysis/torch_api.py: what breaklint knows about torch's API, in one place, so that `check`
never imports torch.

    python -m breaklint.analysis.gen_torch_api          # rewrite torch_api.py from the installed torch
    python -m breaklint.analysis.gen_torch_api --check  # exit 1 if torch_api.py is stale

Two kinds of facts:
- read from the installed torch and Python: TENSOR_METHODS is `dir(torch.Tensor)`, BUILTIN_METHODS the
  methods of Python's builtin value types (public names only, dunders left out);
- curated below: what an op *means* (returns a bool tensor, keeps the shape, returns no tensor).
  torch cannot list those, but it can check them: generating fails when a curated name is missing
  from the installed torch or an elementwise op does not give the dtype and shape its list claims
  (`_check_curated`, run on a small tensor).

Edit a list here, run this, and commit both files; tests/test_torch_api.py fails when they differ.
"""
from __future__ import annotations

import argparse
import ast
import os
import platform
import sys

OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "torch_api.py")
BUILTIN_TYPES = (dict, list, str, set, tuple, int, float, bytes, complex)

# ---- curated facts: each one is written out to torch_api.py with the comment above it ----------------
# Tensor attributes that are plain Python values (no data dependence).
META_ATTRIBUTES = {
    "device", "dtype", "grad_fn", "is_cpu", "is_cuda", "is_floating_point", "is_leaf",
    "is_meta", "is_mps", "is_nested", "is_quantized", "is_sparse", "itemsize", "layout",
    "names", "nbytes", "ndim", "requires_grad", "shape", "training"
}
# Tensor attributes that are tensors.
TENSOR_ATTRIBUTES = {
    "H", "T", "data", "grad", "imag", "mH", "mT", "real"
}
# Tensor methods whose result is not a tensor (sizes, flags, Python scalars, storage), and
# methods of dicts and strings that share a receiver's name with tensors.
NON_TENSOR_METHODS = {
    "__len__", "allclose", "append", "backward", "chunk", "copy_", "data_ptr", "dim",
    "dim_order", "element_size", "endswith", "equal", "format", "get", "get_device",
    "has_names", "is_complex", "is_contiguous", "is_floating_point", "is_inference",
    "is_nonzero", "is_pinned", "is_set_to", "is_shared", "is_signed", "item", "items", "join",
    "keys", "max_pool", "ndimension", "nelement", "numel", "pop", "register_hook",
    "size", "sort", "split", "startswith", "storage_offset", "stride", "tensor_split",
    "tolist", "topk", "type", "unbind", "untyped_storage", "values"
}
# Methods that only tensors (or numpy arrays) have: their result is a tensor even when we cannot
# tell what the receiver is, provided it is not known to be something else. (`max` and `min` only
# without arguments: x.max(dim) and x.max(other) are judged before.)
TENSOR_ONLY_METHODS = {
    "abs", "all", "amax", "amin", "any", "argmax", "argmin", "bfloat16", "clamp", "clone",
    "contiguous", "count_nonzero", "detach", "eq", "exp", "expand", "flatten", "float", "ge",
    "gt", "half", "isfinite", "isinf", "isnan", "le", "log", "logical_and", "logical_not",
    "logical_or", "long", "lt", "masked_fill", "matmul", "max", "mean", "min", "ne", "nonzero",
    "norm", "permute", "pow", "reshape", "sigmoid", "softmax", "sqrt", "squeeze", "sum", "to",
    "transpose", "unsqueeze", "view"
}
# Methods that only a tensor (or a numpy array, a tensor to Dynamo) has: calling one on a name is
# evidence that the name holds a tensor. Names that modules and other objects share (`to`, `float`,
# `half`, `view`, `max`...) are left out.
TENSOR_EVIDENCE_METHODS = {
    "amax", "amin", "argmax", "argmin", "argsort", "bool", "ceil", "clamp", "clamp_",
    "clamp_max", "clamp_min", "contiguous", "count_nonzero", "cumprod", "cumsum", "detach",
    "expand_as", "floor", "frac", "index_add", "index_add_", "index_copy", "index_fill",
    "index_select", "int", "isfinite", "isinf", "isnan", "log_softmax", "logical_and",
    "logical_not", "logical_or", "long", "masked_fill", "masked_fill_", "masked_scatter",
    "masked_select", "new_empty", "new_full", "new_ones", "new_tensor", "new_zeros", "nonzero",
    "numel", "permute", "reshape_as", "scatter_add", "scatter_add_", "scatter_reduce",
    "sigmoid", "sign", "softmax", "topk", "trunc", "type_as", "unsqueeze", "view_as"
}
# Functions whose results are tuples of tensors; unpacking them gives tensors.
TENSOR_TUPLE_FUNCS = {
    "aminmax", "broadcast_tensors", "chunk", "cummax", "cummin", "dsplit", "eigh", "frexp",
    "hsplit", "kthvalue", "lu", "max", "median", "meshgrid", "min", "mode", "qr", "slogdet",
    "sort", "split", "std_mean", "svd", "tensor_split", "topk", "unbind", "unique_consecutive",
    "var_mean", "vsplit"
}
# Namespaces whose functions return tensors (order kept: tensors.py reads [1:], the non-root ones).
TENSOR_NAMESPACES = (
    "torch.", "torch.nn.functional.", "torch.linalg.", "torch.fft.", "torch.special.",
)
# torch namespaces whose functions do not return tensors.
NON_TENSOR_NAMESPACES = (
    "torch.compiler.", "torch.jit.", "torch.cuda.", "torch.backends.", "torch.distributed.",
    "torch._dynamo.", "torch.autograd.", "torch.utils.", "torch.fx.", "torch.overrides.",
    "torch.testing.", "torch.nn.init.", "torch.nn.utils.", "torch.nn.modules.", "torch.amp.",
    "torch.cpu.", "torch.library.", "torch.onnx.", "torch.profiler.", "torch.hub.",
    "torch.mps.", "torch.xpu.", "torch.export.", "torch._C.", "torch.ops.", "torch.types.",
    "torch.version.", "torch.sparse.", "torch.quantization.", "torch.ao.", "torch._utils.",
    "torch._check",
)
# torch functions that return no tensor.
NON_TENSOR_TORCH_FUNCS = {
    "torch.Generator", "torch.Size", "torch.allclose",
    "torch.are_deterministic_algorithms_enabled", "torch.autocast", "torch.broadcast_shapes",
    "torch.can_cast", "torch.cond", "torch.device", "torch.dtype", "torch.enable_grad",
    "torch.equal", "torch.finfo", "torch.get_autocast_dtype", "torch.get_autocast_gpu_dtype",
    "torch.get_default_dtype", "torch.get_rng_state", "torch.iinfo", "torch.inference_mode",
    "torch.is_autocast_enabled", "torch.is_complex",
    "torch.is_deterministic_algorithms_warn_only_enabled", "torch.is_floating_point",
    "torch.is_grad_enabled", "torch.is_inference_mode_enabled", "torch.is_nonzero",
    "torch.is_storage", "torch.is_tensor", "torch.manual_seed", "torch.no_grad", "torch.numel",
    "torch.promote_types", "torch.result_type", "torch.set_grad_enabled", "torch.sym_float",
    "torch.sym_int", "torch.sym_max", "torch.sym_min", "torch.sym_not", "torch.typename",
    "torch.vmap"
}
# nn layers whose call does not return one tensor.
NON_TENSOR_LAYERS = {
    "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "GRU", "Identity", "LSTM",
    "MaxPool1d", "MaxPool2d", "MaxPool3d", "Module", "ModuleDict", "ModuleList",
    "MultiheadAttention", "ParameterDict", "ParameterList", "RNN"
}
# Decorators that compile the function under them.
COMPILE_DECORATORS = {
    "torch.compile", "torch.compiler.compile"
}
# A function under these is run eagerly by Dynamo: nothing inside it can break the graph.
# (`torch.jit.unused` and `torch.jit.ignore` only speak to TorchScript: Dynamo traces such a function,
# measured on 2.13 with a print inside one, and monai's `_check_input_size` breaks there.)
DISABLE_DECORATORS = {
    "torch._disable_dynamo", "torch._dynamo.disable", "torch.compiler.disable"
}
# `kl_divergence(p, q)` runs the function its registrar filed for the pair's classes (`@register_kl(P, Q)`):
# traced code calling it traces that function (measured on 2.13).
KL_DIVERGENCE_FUNCTIONS = {
    "torch.distributions.kl.kl_divergence", "torch.distributions.kl_divergence"
}
KL_REGISTRARS = {
    "torch.distributions.kl.register_kl", "torch.distributions.register_kl"
}
# Recurrent modules Dynamo refuses to trace (GB0014 "Attempted to wrap RNN, GRU, or LSTM": an
# isinstance test in torch/_dynamo/variables/builder.py, so subclasses too; the cells are traced).
RNN_MODULES = {
    "torch.nn.GRU", "torch.nn.LSTM", "torch.nn.RNN"
}
# Methods only the recurrent modules (nn.RNNBase) have: what a module calls one on is recurrent (BL305).
RNN_ONLY_METHODS = {"flatten_parameters"}
# Methods that torch.distributions' base classes call on a subclass ("kind.method"): traced when a
# model calls the public method that runs them (`t(x)` runs `t._call(x)`, `t.inv(y)` `t._inverse(y)`).
DISTRIBUTION_HOOKS = {
    "constraint.__init__", "distribution.__init__", "transform.__call__", "transform.__init__",
    "transform._call", "transform._inverse"
}
# torch functions that make a new tensor, one that does not require grad unless asked
# (`requires_grad=True`); `torch.as_tensor(t)` is not one: it may return `t` itself (BL304).
FRESH_TENSOR_FUNCS = {
    "torch.arange", "torch.empty", "torch.empty_like", "torch.eye", "torch.full", "torch.full_like",
    "torch.linspace", "torch.ones", "torch.ones_like", "torch.rand", "torch.rand_like", "torch.randint",
    "torch.randn", "torch.randn_like", "torch.tensor", "torch.zeros", "torch.zeros_like"
}
# Tensor methods that make a new tensor, one that never requires grad unless asked, whatever the receiver
# (`x.new_zeros(...)`; measured on 2.13: requires_grad_() on it breaks with GB8985, BL304).
FRESH_TENSOR_METHODS = {"new_empty", "new_full", "new_ones", "new_tensor", "new_zeros"}
# In-place Tensor methods that overwrite every element (`torch.empty_like(x).fill_(1.0)`): the result
# requires grad as the receiver does (BL304).
FILL_METHODS = {"bernoulli_", "exponential_", "fill_", "normal_", "random_", "uniform_", "zero_"}
# Tensor methods whose result requires grad exactly when the receiver does, given constant arguments
# (`x.clone().float()` is made from x as far as requires_grad goes; BL304).
GRAD_KEEPING_METHODS = {
    "abs", "bfloat16", "clone", "contiguous", "cpu", "cuda", "double", "exp", "expand", "flatten", "flip",
    "float", "half", "log", "mean", "narrow", "neg", "permute", "repeat", "reshape", "reshape_as", "select",
    "sqrt", "squeeze", "sum", "t", "to", "transpose", "type_as", "unsqueeze", "view", "view_as"
}
# torch functions that join a sequence of tensors: the result requires grad when one of them does (BL304).
TENSOR_JOINS = {"torch.cat", "torch.concat", "torch.hstack", "torch.stack", "torch.vstack"}
# Context managers Dynamo traces through: a break inside them is one split, not a frame skip.
TORCH_CONTEXT_MANAGERS = (
    "torch.no_grad", "torch.enable_grad", "torch.set_grad_enabled", "torch.inference_mode",
    "torch.autocast", "torch.amp.autocast", "torch.cuda.amp.autocast",
    "torch.cpu.amp.autocast", "contextlib.nullcontext", "torch.nn.attention.sdpa_kernel",
    "torch.backends.cuda.sdp_kernel", "torch.autograd.profiler.record_function",
    "torch.profiler.record_function", "torch.random.fork_rng", "torch.device",
)
# Context managers Dynamo can enter even when the object was made before the compiled call (`with
# self.amp:` after `self.amp = torch.autocast(...)` in __init__); every other one made outside skips the
# frame (GB0142, BL506; measured on 2.13: no_grad, enable_grad, set_grad_enabled, inference_mode,
# sdpa_kernel, torch.device, threading locks and user classes all do, these two do not).
HELD_CONTEXT_MANAGERS_TRACED = {
    "contextlib.nullcontext", "torch.amp.autocast", "torch.autocast"
}
# Ops whose Scalar keyword arguments Dynamo must read as Python numbers: a tensor given there is read
# out of the graph (GB0033, "Data dependent operator"; BL109). Op -> its Scalar keywords, space-separated.
# Measured on 2.13 with a 0-d tensor, as torch.<op> and as Tensor.<op>; `add_`, `addcmul_` and
# `addcdiv` do not break and are left out, the in-place forms of the others are not measured.
SCALAR_KEYWORDS = {
    "add": "alpha", "sub": "alpha", "subtract": "alpha", "rsub": "alpha", "sub_": "alpha",
    "addcmul": "value", "addmm": "alpha beta", "addmv": "alpha beta", "addbmm": "alpha beta",
    "baddbmm": "alpha beta", "addr": "alpha beta"
}
# Calls that are not pure: random number generation consumes RNG state in both branches of a
# torch.where rewrite.
RANDOM_NAMES = {
    "alpha_dropout", "bernoulli", "cauchy", "dropout", "dropout1d", "dropout2d", "dropout3d",
    "exponential", "feature_alpha_dropout", "geometric", "gumbel_softmax", "log_normal",
    "manual_seed", "multinomial", "normal", "poisson", "rand", "rand_like", "randint",
    "randint_like", "randn", "randn_like", "random", "randperm", "rrelu", "seed", "uniform"
}
# Elementwise ops (of one tensor, or of two that broadcast) whose result is a bool tensor: an index
# made of them is a boolean mask (rules/bl401). `isclose` and `isreal` are bool too but were never in
# the mask list; they stay out so that BL401's findings do not move.
BOOL_ELEMENTWISE = {
    "bool", "eq", "ge", "greater", "greater_equal", "gt", "isfinite", "isinf", "isnan", "isneginf",
    "isposinf", "le", "less", "less_equal", "logical_and", "logical_not", "logical_or",
    "logical_xor", "lt", "ne", "not_equal", "signbit"
}
# Elementwise ops of one tensor and no other argument that give a bool tensor of the same shape
# (fix/cond.py proves a torch.cond branch's dtype with them). A subset of BOOL_ELEMENTWISE: the
# others take two operands or are casts, which cond.py judges apart.
BOOL_UNARY = {
    "isfinite", "isinf", "isnan", "isneginf", "isposinf", "logical_not", "signbit"
}
# Calls whose result is a bool tensor (any dtype in): a condition made of them needs no `.bool()`
# (fix/branch.py). `any` and `all` only without a dim (fix/branch.py checks).
BOOL_RESULT = BOOL_ELEMENTWISE | {"all", "any", "isclose", "isreal"}
# Elementwise ops that keep the input dtype and shape.
SAME_DTYPE = {
    "abs", "ceil", "clamp", "clamp_max", "clamp_min", "clip", "clone", "floor", "nan_to_num",
    "neg", "negative", "positive", "relu", "round", "sign", "square", "trunc"
}
# Elementwise ops that keep the shape and give a floating result: the input dtype if floating, else
# the default float.
FLOAT_RESULT = {
    "cos", "elu", "erf", "exp", "exp2", "expm1", "gelu", "hardsigmoid", "hardswish",
    "hardtanh", "leaky_relu", "log", "log10", "log1p", "log2", "logsigmoid", "mish",
    "reciprocal", "relu6", "rsqrt", "selu", "sigmoid", "silu", "sin", "softplus", "sqrt",
    "tanh"
}
# Comparisons of two tensors: a bool tensor of the broadcast shape.
COMPARE_METHODS = {
    "eq", "ge", "gt", "le", "lt", "ne"
}
# Casting methods and the dtype they give.
CASTS = {
    "float": "float32", "double": "float64", "half": "float16", "bfloat16": "bfloat16", "long":
    "int64", "int": "int32", "bool": "bool"
}
# Full reductions (no dim) that keep the dtype: a 0-dim tensor that broadcasts against its base
# without changing shape.
REDUCE_SAME = {
    "amax", "amin", "max", "min", "sum"
}
# Full reductions (no dim) with a floating result.
REDUCE_FLOAT = {
    "mean", "norm", "std", "var"
}
# Methods whose result is a Python value, not a tensor.
SCALAR_METHODS = {
    "__len__", "data_ptr", "dim", "element_size", "get_device", "is_complex", "is_contiguous",
    "is_floating_point", "item", "ndimension", "nelement", "numel", "size", "storage_offset",
    "stride", "tolist"
}
# Elementwise functions and methods: the result has the broadcast shape of their tensor arguments.
ELEMENTWISE = {
    "abs", "add", "atan", "bfloat16", "bitwise_not", "bool", "ceil", "celu", "clamp",
    "clamp_max", "clamp_min", "clip", "clone", "contiguous", "cos", "cosh", "detach", "double",
    "elu", "empty_like", "eq", "erf", "erfc", "exp", "exp2", "expm1", "float", "floor", "fmax",
    "fmin", "frac", "full_like", "ge", "gelu", "gt", "half", "hardsigmoid", "hardswish",
    "hardtanh", "int", "isfinite", "isinf", "isnan", "le", "leaky_relu", "lerp", "logical_and",
    "logical_not", "logical_or", "logical_xor", "logsigmoid", "long", "lt", "masked_fill",
    "maximum", "minimum", "mish", "mul", "multiply", "nan_to_num", "ne", "neg", "negative",
    "ones_like", "positive", "relu", "relu6", "round", "selu", "sgn", "sigmoid", "sign",
    "signbit", "silu", "sin", "sinh", "softplus", "square", "sub", "subtract", "tan", "tanh",
    "to", "trunc", "type_as", "where", "zeros_like"
}
# Tensor methods that move, repeat or select elements and keep the dtype (a bool mask stays one:
# `mask.unsqueeze(1).repeat(1, c, 1, 1)` still indexes as a mask). `view` is left out: `view(dtype)`
# reinterprets. Checked on a bool (2, 3) tensor with the arguments in _REARRANGE_ARGS.
REARRANGE_METHODS = {
    "clone", "contiguous", "detach", "expand", "expand_as", "flatten", "flip", "movedim", "narrow",
    "permute", "repeat", "reshape", "roll", "squeeze", "swapaxes", "t", "tile", "transpose",
    "unflatten", "unsqueeze"
}
# Ops along a dim that keep the shape of their input.
KEEP_SHAPE = {
    "cummax", "cummin", "cumprod", "cumsum", "flip", "layer_norm", "log_softmax",
    "logcumsumexp", "normalize", "rms_norm", "roll", "softmax"
}
# Full reductions without a dim: a 0-d tensor.
FULL_REDUCTIONS = {
    "all", "amax", "amin", "any", "count_nonzero", "logsumexp", "max", "mean", "min",
    "nanmean", "nansum", "norm", "prod", "std", "sum", "var"
}
# Functions whose value or gradient is infinite or NaN at some inputs: in the branch not taken, they
# put NaN into the gradient of torch.where (its backward multiplies them by zero).
SINGULAR = {
    "acos", "acosh", "asin", "atanh", "cdist", "digamma", "div", "divide", "erfinv",
    "float_power", "floor_divide", "fmod", "lgamma", "log", "log10", "log1p", "log2", "logit",
    "polygamma", "pow", "reciprocal", "remainder", "rsqrt", "sqrt", "tan", "true_divide",
    "xlogy"
}
# torch modules whose skipped functions (SKIPPED_TORCH_FUNCTIONS, read from Dynamo's trace rules) a
# model might call. torch.compiler and torch.jit are left out: their functions are decorators and
# switches that users call on purpose, outside compiled code.
SKIP_LIST_MODULES = (
    "torch", "torch.autograd", "torch.cuda", "torch.distributions.constraints",
    "torch.distributions.utils", "torch.hub", "torch.masked", "torch.nested", "torch.nn.functional",
    "torch.nn.utils.rnn", "torch.random", "torch.sparse", "torch.utils.data",
)
# Functions that trace_rules marks skipped but that Dynamo handles before asking it, measured on
# 2.13 by calling each in a compiled function: no break, or a different one.
NOT_SKIPPED_WHEN_CALLED = {
    "torch.autograd.backward", "torch.nn.functional.boolean_dispatch"
}
# ---- end of the curated facts ---------------------------------------------------------------------------

# Curated torch names that are not attributes of torch.Tensor or torch in the installed version but are
# kept for the versions that have them.
NOT_IN_THIS_TORCH = frozenset({
    "names",  # named tensors' Tensor.names: absent from torch 2.13's Tensor
})
# Arguments that make an op callable on one tensor for the checks (clamp needs a bound).
_CHECK_ARGS = {"clamp": {"min": 0.0}, "clip": {"min": 0.0}, "clamp_min": {"min": 0.0}, "clamp_max": {"max": 0.0}}
# Positional arguments for REARRANGE_METHODS' check on a bool (2, 3) tensor ("self": the tensor itself).
_REARRANGE_ARGS = {"expand": (2, 3), "expand_as": "self", "flip": (0,), "movedim": (0, 1), "narrow": (1, 0, 2),
                   "permute": (1, 0), "repeat": (2, 1), "reshape": (-1,), "roll": (1,), "swapaxes": (0, 1), "tile": (2,),
                   "transpose": (0, 1), "unflatten": (1, (3, 1)), "unsqueeze": (0,)}


def curated_names() -> list[str]:
    """The names of the curated constants of this file, in order."""
    with open(os.path.abspath(__file__), encoding="utf-8") as handle:
        source = handle.read()
    start, end = source.index("# ---- curated facts"), source.index("# ---- end of the curated facts")
    tree = ast.parse(source)
    return [node.targets[0].id for node in tree.body
            if isinstance(node, ast.Assign) and start < _offset(source, node) < end]


def _offset(source: str, node: ast.AST) -> int:
    return sum(len(line) for line in source.splitlines(True)[:node.lineno - 1])


def _comment_above(source_lines: list[str], name: str) -> list[str]:
    row = next(i for i, line in enumerate(source_lines) if line.startswith(f"{name} = "))
    comment = []
    while row > 0 and source_lines[row - 1].startswith("#") and not source_lines[row - 1].startswith("# ----"):
        row -= 1
        comment.insert(0, source_lines[row].rstrip("\n"))
    return comment


def read_torch_facts(torch) -> dict:
    """The facts read from the installed torch and Python."""
    builtin = set()
    for kind in BUILTIN_TYPES:
        builtin.update(n for n in dir(kind) if not n.startswith("__"))
    return {
        "TORCH_VERSION": torch.__version__,
        "PYTHON_VERSION": platform.python_version(),
        "TENSOR_METHODS": frozenset(n for n in dir(torch.Tensor) if not n.startswith("__")),
        "BUILTIN_METHODS": frozenset(builtin),
        "DISTRIBUTION_CLASSES": distribution_classes(torch),
        "TENSOR_PROPERTIES": tensor_properties(torch),
        "SKIPPED_TORCH_FUNCTIONS": skipped_torch_functions(torch),
        "TENSOR_SUBCLASS_METHODS": tensor_subclass_methods(torch),
        "TENSOR_METHODS_WITHOUT_ARGUMENTS": tensor_methods_without_arguments(torch),
        "NUMPY_RANDOM_UNTRACED": numpy_random_untraced(torch),
        "NUMPY_UNTRACED": numpy_untraced(torch),
        "NUMPY_SKIPPED_MODULES": numpy_skipped_modules(torch),
        "FORWARD_HOOKS": forward_hooks(torch),
        "SKIPPED_LIBRARIES": skipped_libraries(torch),
    }


def tensor_methods_without_arguments(torch) -> frozenset:
    """Public Tensor methods that take no positional argument (`inverse`, `exp`, `t`): their signatures in
    torch.overrides' testing table have the tensor and at most `out`. `obj.inverse(y)` is no such call."""
    import inspect

    overrides = torch.overrides.get_testing_overrides()
    found = set()
    for name in dir(torch.Tensor):
        method = getattr(torch.Tensor, name, None)
        signature_of = overrides.get(method) if not name.startswith("_") else None
        try:
            parameters = list(inspect.signature(signature_of).parameters.values())[1:] if signature_of else None
        except (TypeError, ValueError):
            parameters = None
        if parameters is not None and all(p.name == "out" for p in parameters) and _refuses_an_argument(torch, name):
            found.add(name)
    return frozenset(found)


def _refuses_an_argument(torch, name: str) -> bool:
    """The table is loose (`argmax(input)` takes a dim): the method is called with one positional argument
    on a fresh tensor, and must raise TypeError."""
    try:
        getattr(torch.ones(2, 2), name)(0)
    except TypeError:
        return True
    except Exception:  # noqa: BLE001 - refused for another reason: not proof of the signature
        return False
    return False


def numpy_random_untraced(torch) -> frozenset:
    """The public functions of numpy.random that torch._numpy.random lacks: Dynamo traces numpy through
    torch._numpy, and calling any other one breaks (GB0294; measured on 2.13 for beta, gamma, poisson,
    binomial, exponential, dirichlet, laplace, lognormal, geometric, triangular, standard_normal,
    multivariate_normal, with and without a size)."""
    import inspect

    import numpy.random
    import torch._numpy.random as traced

    return frozenset(name for name in dir(numpy.random) if not name.startswith("_") and not hasattr(traced, name)
                     and inspect.isroutine(getattr(numpy.random, name)))


def numpy_untraced(torch) -> frozenset:
    """Callables of numpy, numpy.fft and numpy.linalg that Dynamo's map to torch._numpy lacks (it maps a NumPy
    function by identity, so an alias such as np.concat is traced): calling one in traced code breaks (GB0294,
    "attempted to trace numpy function unsupported by PyTorch"; measured on 2.13 with numpy 2.4.6 for poly1d,
    polyfit, einsum_path, promote_types, unravel_index, nanmean, isin, select, delete, insert, lexsort, str_ and
    more, on arrays made from tensors and on constants). numpy.random's are NUMPY_RANDOM_UNTRACED."""
    import inspect

    import numpy

    from torch._dynamo.variables.misc import get_np_to_tnp_map

    mapped = {id(fn) for fn in get_np_to_tnp_map()}
    return frozenset(f"{module.__name__}.{name}" for module in (numpy, numpy.fft, numpy.linalg) for name in dir(module)
                     if not name.startswith("_") and name != "test" and callable(getattr(module, name))
                     and not inspect.ismodule(getattr(module, name)) and id(getattr(module, name)) not in mapped)


def numpy_skipped_modules(torch) -> tuple:
    """numpy's public submodules other than those Dynamo traces through torch._numpy (fft, linalg, random):
    their functions are NumPy's own Python, which Dynamo skips (GB0007; measured on 2.13 for numpy.testing,
    numpy.polynomial and numpy.ma)."""
    import inspect

    import numpy

    traced = {"fft", "linalg", "random"}
    return tuple(f"numpy.{name}" for name in sorted(dir(numpy))
                 if not name.startswith("_") and inspect.ismodule(getattr(numpy, name)) and name not in traced)


def tensor_subclass_methods(torch) -> frozenset:
    """Public methods and attributes of torch's own Tensor subclasses (DTensor, the jagged NestedTensor)
    that torch.Tensor lacks: `x.to_local()`, `x.offsets()` on a tensor still give tensors."""
    from torch.distributed.tensor import DTensor
    from torch.nested._internal.nested_tensor import NestedTensor

    base = set(dir(torch.Tensor))
    return frozenset(n for cls in (DTensor, NestedTensor) for n in dir(cls) if not n.startswith("_") and n not in base)


def tensor_properties(torch) -> frozenset:
    """The attributes of torch.Tensor that are values (`shape`, `is_cuda`), not methods."""
    import inspect
    import types

    values = (property, types.GetSetDescriptorType, types.MemberDescriptorType)
    return frozenset(name for name in dir(torch.Tensor) if not name.startswith("__")
                     and (isinstance(inspect.getattr_static(torch.Tensor, name), values)
                          or not callable(inspect.getattr_static(torch.Tensor, name))))


def skipped_libraries(torch) -> frozenset:
    """The third-party packages Dynamo never traces (trace_rules.THIRDPARTY_SKIPLIST: tqdm, pandas,
    sklearn...): calling into one from traced code breaks the graph (GB0007). numpy is left out: Dynamo
    traces it through torch._numpy."""
    from torch._dynamo import trace_rules

    return frozenset(trace_rules.THIRDPARTY_SKIPLIST) - {"numpy"}


def skipped_torch_functions(torch) -> frozenset:
    """The public functions of SKIP_LIST_MODULES that Dynamo's trace rules mark skipped: a call in
    traced code ends the graph and runs eagerly ("Attempted to call function marked as skipped")."""
    import importlib
    import inspect

    from torch._dynamo import trace_rules
    from torch._dynamo.variables.functions import SkipFunctionVariable

    found = set()
    for module_name in SKIP_LIST_MODULES:
        module = importlib.import_module(module_name)
        for name in dir(module):
            value = getattr(module, name, None)
            if name.startswith("_") or isinstance(value, type) \
                    or not (inspect.isfunction(value) or inspect.isbuiltin(value)):
                continue
            qualified = f"{module_name}.{name}"
            try:
                skipped = trace_rules.lookup(value) is SkipFunctionVariable
            except Exception:  # noqa: BLE001 - a name Dynamo cannot look up is not one it skips
                skipped = False
            if skipped and qualified not in NOT_SKIPPED_WHEN_CALLED:
                found.add(qualified)
    return frozenset(found)


def forward_hooks(torch) -> frozenset:
    """"<torch.nn class, every spelling>.<method>" for each method of self that a torch.nn module's forward
    calls on every call, at any depth within torch's own classes (BatchNorm's `_check_input_dim`, Conv's
    `_conv_forward`): a subclass that overrides one (and not forward) has it traced whenever the module is
    called. Calls under an `if` or a loop (a fast path) do not count; recurrent modules are never traced."""
    import importlib
    import inspect
    import pkgutil
    import textwrap

    nn = torch.nn
    modules = [nn] + [importlib.import_module(f"torch.nn.modules.{info.name}")
                      for info in pkgutil.iter_modules(nn.modules.__path__)]
    classes = {}
    for module in modules:
        for name, cls in vars(module).items():
            if inspect.isclass(cls) and issubclass(cls, nn.Module) and cls is not nn.Module \
                    and cls.__module__.startswith("torch.nn.modules") and not issubclass(cls, nn.RNNBase):
                # names.py spells `torch.nn.modules.batchnorm._BatchNorm` as `torch.nn._BatchNorm`
                classes.setdefault(cls, set()).update({f"{module.__name__}.{name}", f"torch.nn.{name}"})
    found = set()
    for cls, spellings in classes.items():
        called, todo, seen = set(), ["forward"], set()
        while todo:
            method = todo.pop()
            if method in seen:
                continue
            seen.add(method)
            owner = next((k for k in cls.__mro__ if method in vars(k)), None)
            if owner is None or owner is nn.Module or not owner.__module__.startswith("torch."):
                continue
            try:
                tree = ast.parse(textwrap.dedent(inspect.getsource(vars(owner)[method])))
            except (TypeError, OSError, SyntaxError):
                continue
            for node in _unconditional_nodes(tree.body[0].body):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and isinstance(node.func.value, ast.Name) and node.func.value.id == "self" \
                        and callable(getattr(cls, node.func.attr, None)) \
                        and not hasattr(nn.Module, node.func.attr):
                    called.add(node.func.attr)
                    todo.append(node.func.attr)
        found.update(f"{spelling}.{method}" for spelling in spellings for method in called)
    return frozenset(found)


def _unconditional_nodes(body: list):
    """The nodes of statements that run whenever the body does: not those inside an `if`, a loop, a `try` or
    a nested def (an `if`'s test runs, its branches may not)."""
    for stmt in body:
        if isinstance(stmt, ast.If):
            yield from ast.walk(stmt.test)
        elif isinstance(stmt, (ast.For, ast.While, ast.Try, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        elif isinstance(stmt, ast.With):
            yield from _unconditional_nodes(stmt.body)
        else:
            yield from ast.walk(stmt)


def distribution_classes(torch) -> dict:
    """Every spelling of a class of torch.distributions (`torch.distributions.Normal`,
    `torch.distributions.normal.Normal`) -> "distribution", "transform" or "constraint"."""
    import importlib
    import pkgutil

    import torch.distributions as package
    from torch.distributions import constraints, transforms

    kinds = ((package.Distribution, "distribution"), (transforms.Transform, "transform"),
             (constraints.Constraint, "constraint"))
    modules = [package] + [importlib.import_module(f"{package.__name__}.{info.name}")
                           for info in pkgutil.iter_modules(package.__path__)]
    found = {}
    for module in modules:
        for name, value in vars(module).items():
            if not isinstance(value, type) or not value.__module__.startswith(package.__name__):
                continue
            for base, kind in kinds:
                if issubclass(value, base):
                    found[f"{module.__name__}.{name}"] = kind
                    break
    return dict(sorted(found.items()))


def _resolve(torch, name: str):
    """torch.Tensor's method or torch's (or torch.nn.functional's) function of that name, else None."""
    import torch.nn.functional as F

    for owner in (torch.Tensor, torch, F):
        if hasattr(owner, name):
            fn = getattr(owner, name)
            return fn if owner is not torch.Tensor else (lambda x, *a, _n=name, **k: getattr(x, _n)(*a, **k))
    return None


def _check_curated(torch) -> list[str]:
    """What the installed torch contradicts in the curated lists; empty when it agrees."""
    problems = []
    tensor = set(dir(torch.Tensor))

    def missing(label: str, names) -> None:
        for name in sorted(set(names) - NOT_IN_THIS_TORCH):
            if _resolve(torch, name) is None:
                problems.append(f"{label}: {name} is neither a Tensor method nor a torch function")

    def dotted(label: str, names) -> None:
        for name in sorted(set(names) - NOT_IN_THIS_TORCH):
            if name.startswith("torch.") and _lookup(torch, name) is None:
                problems.append(f"{label}: {name} does not exist")

    for label in ("TENSOR_ONLY_METHODS", "TENSOR_EVIDENCE_METHODS"):
        for name in sorted(set(globals()[label]) - tensor - NOT_IN_THIS_TORCH):
            problems.append(f"{label}: {name} is not a Tensor method")
    for label in ("META_ATTRIBUTES", "TENSOR_ATTRIBUTES"):
        for name in sorted(set(globals()[label]) - tensor - NOT_IN_THIS_TORCH - {"training"}):  # Module.training, read off self
            problems.append(f"{label}: {name} is not a Tensor attribute")
    missing("BOOL_RESULT", BOOL_RESULT)
    missing("BOOL_ELEMENTWISE", BOOL_ELEMENTWISE)
    missing("RANDOM_NAMES", RANDOM_NAMES - {"uniform", "exponential", "geometric", "log_normal", "cauchy",
                                            "random", "seed"})  # in-place Tensor methods: `uniform_`
    dotted("NON_TENSOR_TORCH_FUNCS", NON_TENSOR_TORCH_FUNCS)
    dotted("COMPILE_DECORATORS", COMPILE_DECORATORS)
    dotted("DISABLE_DECORATORS", DISABLE_DECORATORS)
    dotted("KL_DIVERGENCE_FUNCTIONS", KL_DIVERGENCE_FUNCTIONS)
    dotted("KL_REGISTRARS", KL_REGISTRARS)
    dotted("RNN_MODULES", RNN_MODULES)
    for name in sorted(RNN_ONLY_METHODS):
        others = [c.__name__ for c in vars(torch.nn).values() if isinstance(c, type) and issubclass(c, torch.nn.Module)
                  and hasattr(c, name) and not issubclass(c, torch.nn.RNNBase)]
        if not hasattr(torch.nn.RNNBase, name) or others:
            problems.append(f"RNN_ONLY_METHODS: {name} is not nn.RNNBase's alone ({others})")
    dotted("FRESH_TENSOR_FUNCS", FRESH_TENSOR_FUNCS)
    dotted("TENSOR_JOINS", TENSOR_JOINS)
    for label in ("FRESH_TENSOR_METHODS", "FILL_METHODS", "GRAD_KEEPING_METHODS"):
        for name in sorted(set(globals()[label]) - tensor - NOT_IN_THIS_TORCH):
            problems.append(f"{label}: {name} is not a Tensor method")
    dotted("TORCH_CONTEXT_MANAGERS", TORCH_CONTEXT_MANAGERS)
    dotted("HELD_CONTEXT_MANAGERS_TRACED", HELD_CONTEXT_MANAGERS_TRACED)
    for name in SCALAR_KEYWORDS:
        if _resolve(torch, name) is None:
            problems.append(f"SCALAR_KEYWORDS: {name} is neither a Tensor method nor a torch function")
    from torch.distributions import Distribution, constraints, transforms

    bases = {"distribution": Distribution, "transform": transforms.Transform, "constraint": constraints.Constraint}
    for hook in sorted(DISTRIBUTION_HOOKS):
        kind, _, method = hook.partition(".")
        if kind not in bases or not hasattr(bases[kind], method):
            problems.append(f"DISTRIBUTION_HOOKS: {hook} is not a method of torch.distributions' {kind} base")

    x = torch.randn(2, 3)
    n = torch.arange(6).reshape(2, 3)

    def call(label: str, name: str, *args):
        fn = _resolve(torch, name)
        if fn is None:
            problems.append(f"{label}: {name} is neither a Tensor method nor a torch function")
            return None
        try:
            return fn(*args, **_CHECK_ARGS.get(name, {}))
        except Exception as exc:  # noqa: BLE001 - reported, not raised
            problems.append(f"{label}: {name} cannot be called on a (2, 3) tensor ({exc})")
            return None

    def expect(label: str, name: str, got, dtype, shape=(2, 3)) -> None:
        if got is not None and (got.dtype != dtype or tuple(got.shape) != shape):
            problems.append(f"{label}: {name} gives {got.dtype} {tuple(got.shape)}, not {dtype} {shape}")

    for name in sorted(BOOL_UNARY):
        expect("BOOL_UNARY", name, call("BOOL_UNARY", name, x), torch.bool)
    for name in sorted(BOOL_ELEMENTWISE - BOOL_UNARY):
        fn = _resolve(torch, name)
        try:
            got = fn(x) if name == "bool" else fn(x, x)
        except Exception as exc:  # noqa: BLE001 - reported, not raised
            problems.append(f"BOOL_ELEMENTWISE: {name} cannot be called on two (2, 3) tensors ({exc})")
        else:
            expect("BOOL_ELEMENTWISE", name, got, torch.bool)
    for name in sorted(BOOL_UNARY - BOOL_ELEMENTWISE):
        problems.append(f"BOOL_UNARY: {name} is missing from BOOL_ELEMENTWISE")
    for name in sorted(COMPARE_METHODS):
        expect("COMPARE_METHODS", name, call("COMPARE_METHODS", name, x, x), torch.bool)
    for name in sorted(SAME_DTYPE):
        expect("SAME_DTYPE", name, call("SAME_DTYPE", name, x), x.dtype)
    for name in sorted(FLOAT_RESULT):
        expect("FLOAT_RESULT", name, call("FLOAT_RESULT", name, x), x.dtype)
    mask = x > 0
    for name in sorted(REARRANGE_METHODS):
        args = _REARRANGE_ARGS.get(name, ())
        try:
            got = getattr(mask, name)(*((mask,) if args == "self" else args))
        except Exception as exc:  # noqa: BLE001 - reported, not raised
            problems.append(f"REARRANGE_METHODS: {name} cannot be called on a bool (2, 3) tensor ({exc})")
        else:
            if got.dtype != torch.bool:
                problems.append(f"REARRANGE_METHODS: {name} turns a bool tensor into {got.dtype}")
    for name, dtype in CASTS.items():
        expect("CASTS", name, call("CASTS", name, n), getattr(torch, dtype))
    for name in sorted(REDUCE_SAME):
        expect("REDUCE_SAME", name, call("REDUCE_SAME", name, n), n.dtype, shape=())
    for name in sorted(REDUCE_FLOAT):
        expect("REDUCE_FLOAT", name, call("REDUCE_FLOAT", name, x), x.dtype, shape=())
    for name in sorted(SCALAR_METHODS - tensor):
        problems.append(f"SCALAR_METHODS: {name} is not a Tensor method")
    missing("ELEMENTWISE", ELEMENTWISE)
    missing("SINGULAR", SINGULAR)
    for name in sorted(ELEMENTWISE):  # the shape of the operands, where one or two tensors suffice
        got = _try_calls(torch, name, (x,), (x, x))
        if isinstance(got, torch.Tensor) and tuple(got.shape) != (2, 3):
            problems.append(f"ELEMENTWISE: {name} gives shape {tuple(got.shape)}, not (2, 3)")
    for name in sorted(KEEP_SHAPE):
        got = call("KEEP_SHAPE", name, x, *_KEEP_SHAPE_ARGS.get(name, (-1,)))
        got = got[0] if isinstance(got, tuple) else got
        if got is not None and tuple(got.shape) != (2, 3):
            problems.append(f"KEEP_SHAPE: {name} gives shape {tuple(got.shape)}, not (2, 3)")
    for name in sorted(FULL_REDUCTIONS):  # without a dim: 0-d (logsumexp cannot be called so: no harm)
        got = _try_calls(torch, name, (x,))
        if _resolve(torch, name) is None:
            problems.append(f"FULL_REDUCTIONS: {name} is neither a Tensor method nor a torch function")
        elif isinstance(got, torch.Tensor) and got.dim() != 0:
            problems.append(f"FULL_REDUCTIONS: {name} gives shape {tuple(got.shape)}, not ()")
    return problems


_KEEP_SHAPE_ARGS = {"flip": ([0],), "roll": (1,), "normalize": (), "layer_norm": ((3,),), "rms_norm": ((3,),)}


def _try_calls(torch, name: str, *argument_lists):
    """The first result of calling the op with one of the argument lists, else None."""
    fn = _resolve(torch, name)
    for args in argument_lists:
        try:
            return fn(*args)
        except Exception:  # noqa: BLE001 - the op needs other arguments: nothing to check
            continue
    return None


def _lookup(torch, dotted_name: str):
    import importlib

    parts = dotted_name.split(".")
    for split in range(len(parts), 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attr in parts[split:]:
            value = getattr(value, attr, None)
            if value is None:
                return None
        return value
    return None


def render(torch) -> str:
    """The text of torch_api.py for the installed torch."""
    problems = _check_curated(torch)
    if problems:
        raise ValueError("the installed torch disagrees with the curated lists:\n  " + "\n  ".join(problems))
    with open(os.path.abspath(__file__), encoding="utf-8") as handle:
        source_lines = handle.readlines()
    read = read_torch_facts(torch)
    out = [
        '"""What breaklint knows about torch\'s API: the one place the rest of the package reads it from.',
        "",
        "GENERATED by `python -m breaklint.analysis.gen_torch_api`; do not edit. Edit the curated lists in",
        "gen_torch_api.py (checked against the installed torch when generating) and run it again.",
        "This module imports no torch: `check` runs without it.",
        '"""',
        "",
        "# The torch and Python these facts were read from.",
        f"TORCH_VERSION = {read['TORCH_VERSION']!r}".replace("'", '"'),
        f"PYTHON_VERSION = {read['PYTHON_VERSION']!r}".replace("'", '"'),
        "",
        "# dir(torch.Tensor), dunders left out: a method call on an unknown receiver most likely means a",
        "# tensor, and such a call is never dispatched by name to a class of the linted tree.",
        "TENSOR_METHODS = " + _literal(read["TENSOR_METHODS"]),
        "# Methods of Python's builtin value types (dict, list, str, set, tuple, int, float, bytes, complex).",
        "BUILTIN_METHODS = " + _literal(read["BUILTIN_METHODS"]),
        "# The classes of torch.distributions, every spelling, by kind. A subclass's methods are model code:",
        "# a model's forward builds distributions and transforms and calls them, so Dynamo traces them.",
        "DISTRIBUTION_CLASSES = " + _literal(read["DISTRIBUTION_CLASSES"]),
        "# Attributes of torch.Tensor that are values, not methods: `x.shape` is data, `x.is_contiguous` a",
        "# bound method (always true as a condition).",
        "TENSOR_PROPERTIES = " + _literal(read["TENSOR_PROPERTIES"]),
        "# Public functions of SKIP_LIST_MODULES that Dynamo's trace rules (torch._dynamo.trace_rules.lookup)",
        "# mark skipped: a call in traced code breaks the graph (GB0007) and runs eagerly (rules/bl502).",
        "SKIPPED_TORCH_FUNCTIONS = " + _literal(read["SKIPPED_TORCH_FUNCTIONS"]),
        "# Methods of torch's own Tensor subclasses (DTensor, the jagged NestedTensor) that torch.Tensor lacks:",
        "# called on a tensor they still give one; any other method torch.Tensor lacks is a project subclass's own.",
        "TENSOR_SUBCLASS_METHODS = " + _literal(read["TENSOR_SUBCLASS_METHODS"]),
        "# Tensor methods that take no positional argument: `self.bijector.inverse(y, ctx)` is a method of",
        "# some class of the tree, not Tensor.inverse (signatures from torch.overrides' testing table).",
        "TENSOR_METHODS_WITHOUT_ARGUMENTS = " + _literal(read["TENSOR_METHODS_WITHOUT_ARGUMENTS"]),
        "# Public functions of numpy.random that torch._numpy.random lacks: Dynamo traces numpy through",
        "# torch._numpy, so a call of one in traced code breaks the graph (GB0294, rules/bl502).",
        "NUMPY_RANDOM_UNTRACED = " + _literal(read["NUMPY_RANDOM_UNTRACED"]),
        "# Callables of numpy, numpy.fft and numpy.linalg that Dynamo's map to torch._numpy lacks: a call of one",
        "# in traced code breaks the graph (GB0294, rules/bl502). Read from the installed numpy.",
        "NUMPY_UNTRACED = " + _literal(read["NUMPY_UNTRACED"]),
        "# numpy's submodules Dynamo does not trace through torch._numpy: their functions are skipped (GB0007).",
        "NUMPY_SKIPPED_MODULES = " + _literal(read["NUMPY_SKIPPED_MODULES"]),
        "# \"<torch.nn class>.<method>\": methods of self that the class's forward calls (BatchNorm's",
        "# _check_input_dim, Conv's _conv_forward): a subclass's override runs whenever the module is called.",
        "FORWARD_HOOKS = " + _literal(read["FORWARD_HOOKS"]),
        "# Third-party packages Dynamo never traces (trace_rules.THIRDPARTY_SKIPLIST, numpy left out: it is",
        "# traced through torch._numpy): a call into one from traced code breaks the graph (GB0007, rules/bl502).",
        "SKIPPED_LIBRARIES = " + _literal(read["SKIPPED_LIBRARIES"]),
    ]
    for name in curated_names():
        out.extend(_comment_above(source_lines, name))
        out.append(f"{name} = " + _literal(globals()[name]))
    return "\n".join(out) + "\n"


def _literal(value) -> str:
    """A frozenset as a sorted frozenset literal, a tuple in its order, a dict in its order; wrapped."""
    if isinstance(value, dict):
        items, opening, closing = [f'"{k}": "{v}"' for k, v in value.items()], "{", "}"
    elif isinstance(value, tuple):
        items, opening, closing = [f'"{v}"' for v in value], "(", ")"
    else:
        items, opening, closing = [f'"{v}"' for v in sorted(value)], "frozenset({", "})"
    lines, line = [], "   "
    for item in items:
        if len(line) + len(item) + 2 > 99:
            lines.append(line.rstrip())
            line = "   "
        line += f" {item},"
    lines.append(line)
    return opening + "\n" + "\n".join(lines) + "\n" + closing


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if torch_api.py differs, write nothing")
    args = parser.parse_args(argv)
    import torch

    text = render(torch)
    with open(OUTPUT, encoding="utf-8") as handle:
        current = handle.read()
    if args.check:
        if current != text:
            print(f"{OUTPUT} is stale for torch {torch.__version__}; run python -m breaklint.analysis.gen_torch_api")
            return 1
        return 0
    if current != text:
        with open(OUTPUT, "w", encoding="utf-8") as handle:
            handle.write(text)
    print(f"wrote {OUTPUT} from torch {torch.__version__}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
