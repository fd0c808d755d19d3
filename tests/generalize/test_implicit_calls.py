"""Issue #11, scope: functions traced code runs without naming them in a call: callbacks passed as
arguments (a function or a bound method, called back by the callee), and the special methods Python
runs for attribute and item assignment on an object of the tree. Each case is a small package whose
break sits in a file only the call graph can reach."""
from .helpers import check_tree
from .test_objects import MODEL_HEAD, decoys


def test_a_function_of_another_file_passed_as_an_argument_is_called_back(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/misc.py": """
            def linf_norm(t):
                return t.abs().max().item()
            def ratio(err, tol, norm):
                return norm(err / tol)
            def unused(t):
                return t.abs().max().item()
            """,
        "pkg/model.py": MODEL_HEAD + """
            from .misc import linf_norm, ratio
            class Net(nn.Module):
                def forward(self, x):
                    return ratio(x, 2.0, linf_norm)
            """,
    })
    assert ("pkg/misc.py", 2, "BL103") in got
    assert not any(path == "pkg/misc.py" and row == 6 for path, row, _ in got)


def test_a_bound_method_passed_as_an_argument_is_called_back(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": MODEL_HEAD + """
            class Base(nn.Module):
                def _block(self, x):
                    print("block")
                    return x
                def _other(self, x):
                    print("other")
                    return x
            """,
        "pkg/model.py": MODEL_HEAD + """
            from torch.utils.checkpoint import checkpoint
            from .base import Base
            class Net(Base):
                def forward(self, x):
                    return checkpoint(self._block, x, use_reentrant=False)
            """,
    })
    assert ("pkg/base.py", 5, "BL201") in got
    assert not any(path == "pkg/base.py" and row == 8 for path, row, _ in got)


def test_assignments_on_an_object_of_the_tree_run_its_setattr_and_setitem(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/outputs.py": """
            from collections import OrderedDict
            class BaseOutput(OrderedDict):
                def __post_init__(self):
                    for key, value in self.__dict__.items():
                        self[key] = value
                def __setattr__(self, name, value):
                    print("setattr", name)
                    super().__setattr__(name, value)
                def __setitem__(self, key, value):
                    print("setitem", key)
                    super().__setitem__(key, value)
                def __getitem__(self, key):
                    print("getitem", key)
                    return super().__getitem__(key)
            """,
        "pkg/model.py": MODEL_HEAD + """
            from dataclasses import dataclass
            from .outputs import BaseOutput
            @dataclass
            class Output(BaseOutput):
                sample: torch.Tensor = None
            class Net(nn.Module):
                def forward(self, x):
                    return Output(sample=x)
            """,
    })
    assert ("pkg/outputs.py", 7, "BL201") in got
    assert ("pkg/outputs.py", 10, "BL201") in got
    # nothing reads an item
    assert not any(path == "pkg/outputs.py" and row == 13 for path, row, _ in got)


def test_an_object_kept_through_a_setter_from_a_conditional_construction_is_called(tmp_path):
    # `processor = A() if c else B(); self.set_processor(processor)`, the setter keeps it on self
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/others.py": """
            class Other:
                def __call__(self, attn, x):
                    print("other")
            """,
        "pkg/processors.py": """
            class FastProcessor:
                def __call__(self, attn, x):
                    print("fast")
                    return x
            class SlowProcessor:
                def __call__(self, attn, x):
                    return x.max().item()
            """,
        "pkg/attention.py": MODEL_HEAD + """
            from .processors import FastProcessor, SlowProcessor
            class Attention(nn.Module):
                def __init__(self, processor=None, fast=True):
                    super().__init__()
                    if processor is None:
                        processor = (
                            FastProcessor() if fast else SlowProcessor()
                        )
                    self.set_processor(processor)
                def set_processor(self, processor):
                    self.processor = processor
                def forward(self, x):
                    return self.processor(self, x)
            """,
    })
    assert ("pkg/processors.py", 3, "BL201") in got
    assert ("pkg/processors.py", 7, "BL103") in got
    assert "pkg/others.py" not in {path for path, _, _ in got}


def test_an_object_passed_to_a_constructor_in_another_file_and_kept_on_self_is_called(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/processors.py": """
            class JointProcessor:
                def __call__(self, attn, x):
                    print("joint")
                    return x
            class UnusedProcessor:
                def __call__(self, attn, x):
                    print("unused")
                    return x
            """,
        "pkg/attention.py": MODEL_HEAD + """
            class Attention(nn.Module):
                def __init__(self, dim, processor=None):
                    super().__init__()
                    self.processor = processor
                def forward(self, x):
                    return self.processor(self, x)
            """,
        "pkg/block.py": MODEL_HEAD + """
            from .attention import Attention
            from .processors import JointProcessor
            class Block(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.attn = Attention(
                        4,
                        processor=JointProcessor(),
                    )
                def forward(self, x):
                    return self.attn(x)
            """,
    })
    assert ("pkg/processors.py", 3, "BL201") in got
    assert not any(path == "pkg/processors.py" and row == 7 for path, row, _ in got)


def test_a_default_bound_method_and_a_default_class_kept_on_self(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/processors.py": """
            class DefaultProcessor:
                def __call__(self, x):
                    print("default")
                    return x
            """,
        "pkg/base.py": MODEL_HEAD + """
            from .processors import DefaultProcessor
            class Pool(nn.Module):
                default_cls = DefaultProcessor
                def __init__(self, score_method=None, processor=None):
                    super().__init__()
                    if score_method is None:
                        score_method = self.score_softmax
                    self.score = score_method
                    if processor is None:
                        processor = self.default_cls()
                    self.processor = processor
                def score_softmax(self, x):
                    print("softmax")
                    return x
                def score_other(self, x):
                    print("other")
                    return x
                def forward(self, x):
                    return self.processor(self.score(x))
            """,
    })
    assert ("pkg/base.py", 15, "BL201") in got
    assert ("pkg/processors.py", 3, "BL201") in got
    assert not any(path == "pkg/base.py" and row == 18 for path, row, _ in got)


def test_a_tuple_of_callbacks_passed_as_an_argument_is_called_back(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/dispatch.py": """
            def dispatch(x, steps):
                for step in steps:
                    x = step(x)
                return x
            """,
        "pkg/model.py": MODEL_HEAD + """
            from typing import Callable, Tuple
            from .dispatch import dispatch
            def _brightness(x):
                print("brightness")
                return x
            def _unused(x):
                print("unused")
                return x
            STEPS: Tuple[Callable, ...] = (_brightness,)
            class Net(nn.Module):
                def forward(self, x):
                    steps = (self._hue, self._contrast)
                    return dispatch(dispatch(x, steps), STEPS)
                def _hue(self, x):
                    print("hue")
                    return x
                def _contrast(self, x):
                    return x
            """,
    })
    assert ("pkg/model.py", 6, "BL201") in got
    assert ("pkg/model.py", 17, "BL201") in got
    assert not any(path == "pkg/model.py" and row == 9 for path, row, _ in got)


def test_a_mixin_setter_keeps_what_the_subclass_and_its_builders_pass(tmp_path):
    # the mixin assigns `self.processor = processor`; the subclass binds it from a class attribute,
    # and a builder in another file passes a name bound to an instance
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/mixin.py": """
            class AttentionMixin:
                def set_processor(self, processor):
                    self.processor = processor
                def forward(self, x):
                    return self.processor(self, x)
            """,
        "pkg/processors.py": """
            class DefaultProcessor:
                def __call__(self, attn, x):
                    print("default")
                    return x
            class BuiltProcessor:
                def __call__(self, attn, x):
                    print("built")
                    return x
            class UnusedProcessor:
                def __call__(self, attn, x):
                    print("unused")
                    return x
            """,
        "pkg/attention.py": MODEL_HEAD + """
            from .mixin import AttentionMixin
            from .processors import DefaultProcessor
            class FluxAttention(nn.Module, AttentionMixin):
                _default_processor_cls = DefaultProcessor
                def __init__(self, processor=None):
                    super().__init__()
                    if processor is None:
                        processor = self._default_processor_cls()
                    self.set_processor(processor)
                def forward(self, x):
                    return self.processor(self, x)
            """,
        "pkg/block.py": MODEL_HEAD + """
            from .attention import FluxAttention
            from .processors import BuiltProcessor
            class Block(nn.Module):
                def __init__(self):
                    super().__init__()
                    processor = BuiltProcessor()
                    self.attn = FluxAttention(processor=processor)
                def forward(self, x):
                    return self.attn(x)
            """,
    })
    assert ("pkg/processors.py", 3, "BL201") in got
    assert ("pkg/processors.py", 7, "BL201") in got
    assert not any(path == "pkg/processors.py" and row == 11 for path, row, _ in got)


def test_a_method_of_an_attribute_of_what_a_method_returns(tmp_path):
    # posterior = self.encode(x).latent_dist; posterior.mode(): the output class names the attribute's
    # class as a forward reference it does not import
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/others.py": decoys("mode", "sample"),
        "pkg/outputs.py": """
            from dataclasses import dataclass
            @dataclass
            class EncoderOutput:
                latent_dist: "Gaussian"
            """,
        "pkg/vae.py": """
            class Gaussian:
                def __init__(self, params):
                    self.mean = params
                def mode(self):
                    print("mode")
                    return self.mean
                def sample(self):
                    print("sample")
                    return self.mean
            """,
        "pkg/model.py": MODEL_HEAD + """
            from .outputs import EncoderOutput
            from .vae import Gaussian
            class AutoEncoder(nn.Module):
                def encode(self, x) -> EncoderOutput:
                    return EncoderOutput(latent_dist=Gaussian(x))
                def forward(self, x):
                    posterior = self.encode(x).latent_dist
                    return posterior.mode() + self.encode(x).latent_dist.mode()
            """,
    })
    assert ("pkg/vae.py", 5, "BL201") in got
    assert not any(path == "pkg/vae.py" and row == 8 for path, row, _ in got)
    assert "pkg/others.py" not in {path for path, _, _ in got}


def test_a_method_of_what_a_submodule_returns_kept_in_a_local(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/others.py": decoys("log_prob"),
        "pkg/dists.py": """
            class Normal:
                def __init__(self, loc):
                    self.loc = loc
                def log_prob(self, x):
                    return (x - self.loc).sum().item()
            class Laplace:
                def __init__(self, loc):
                    self.loc = loc
                def log_prob(self, x):
                    print("laplace")
                    return x
            def laplace(loc):
                return Laplace(loc)
            """,
        "pkg/model.py": MODEL_HEAD + """
            from .dists import Normal, laplace
            class Flow(nn.Module):
                def forward(self, c):
                    return Normal(c)
            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.flow = Flow()
                def forward(self, x, c):
                    d = self.flow(c)
                    return d.log_prob(x)
            """,
    })
    assert ("pkg/dists.py", 5, "BL103") in got
    # what the submodule's forward returns is a Normal, not a Laplace
    assert not any(path == "pkg/dists.py" and row == 10 for path, row, _ in got)
    assert "pkg/others.py" not in {path for path, _, _ in got}


def test_a_callback_registered_as_a_hook_or_a_thread_target_is_not_traced(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/model.py": MODEL_HEAD + """
            import threading
            class Net(nn.Module):
                def forward(self, x):
                    self.register_forward_hook(self._hook)
                    threading.Thread(target=self._loop).start()
                    return x
                def _hook(self, module, args, out):
                    print("hook")
                def _loop(self):
                    print("loop")
            """,
    })
    assert not any(path == "pkg/model.py" and row in (10, 12) for path, row, _ in got)


def test_a_context_manager_of_another_file_entered_in_traced_code(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/others.py": decoys("__enter__", "__exit__"),
        "pkg/plates.py": """
            class Plate:
                def __init__(self, size):
                    self.size = size
                def __enter__(self):
                    print("enter")
                    return self
                def __exit__(self, *exc):
                    print("exit")
            def plate(size):
                return Plate(size)
            """,
        "pkg/model.py": MODEL_HEAD + """
            from .plates import plate
            def helper(x):
                with plate(3):
                    return x
            class Net(nn.Module):
                def forward(self, x):
                    return helper(x)
            """,
    })
    assert ("pkg/plates.py", 5, "BL201") in got
    assert ("pkg/plates.py", 8, "BL201") in got
    assert "pkg/others.py" not in {path for path, _, _ in got}


def test_a_method_of_an_object_built_from_a_registry_of_classes(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/others.py": decoys("integrate"),
        "pkg/solvers.py": """
            class Euler:
                def __init__(self, sde):
                    self.sde = sde
                def integrate(self, y):
                    print("euler")
                    return y
            class Milstein:
                def __init__(self, sde):
                    self.sde = sde
                def integrate(self, y):
                    return y.max().item()
            """,
        "pkg/sdeint.py": """
            from .solvers import Euler, Milstein
            SOLVERS = {"ito": {"euler": Euler, "milstein": Milstein}}
            def sdeint(sde, y, kind, method):
                solver_fn = SOLVERS[kind][method]
                solver = solver_fn(sde)
                return solver.integrate(y)
            """,
        "pkg/model.py": MODEL_HEAD + """
            from .sdeint import sdeint
            class Net(nn.Module):
                def forward(self, y):
                    return sdeint(None, y, "ito", "euler")
            """,
    })
    assert ("pkg/solvers.py", 5, "BL201") in got
    assert ("pkg/solvers.py", 11, "BL103") in got
    assert "pkg/others.py" not in {path for path, _, _ in got}


def test_a_property_read_on_an_object_of_the_tree_runs_its_getter(tmp_path):
    """`t = Thing(x); t.scale` and `self.t.scale`: reading a property (or a lazy / cached property) of
    an object whose class is known runs the getter, in this file and across files. A plain method
    that is only read, and an attribute of an object of unknown class, are not followed."""
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/things.py": """
            from functools import cached_property
            from torch.distributions.utils import lazy_property

            class Thing:
                def __init__(self, x):
                    self.x = x
                @property
                def scale(self):
                    return self.x.max().item()
                @lazy_property
                def shift(self):
                    return self.x.min().item()
                @cached_property
                def spread(self):
                    return self.x.std().item()
                def unused(self):
                    return self.x.sum().item()
            """,
        "pkg/net.py": """
            from torch import nn
            from .things import Thing

            class Local:
                def __init__(self, x):
                    self.x = x
                @property
                def level(self):
                    return self.x.mean().item()

            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.kept = Thing(None)
                def forward(self, x, other):
                    t = Thing(x)
                    here = Local(x)
                    callback = t.unused  # a plain method read, not called: not run
                    return t.scale + self.kept.shift + t.spread + here.level + other.level, callback
            """,
    })
    assert {("pkg/things.py", 9, "BL103"), ("pkg/things.py", 12, "BL103"), ("pkg/things.py", 15, "BL103"),
            ("pkg/net.py", 9, "BL103")} <= got
    assert ("pkg/things.py", 17, "BL103") not in got


def test_a_name_from_a_star_import_and_item_access_on_a_held_object(tmp_path):
    """`from .utils import *` then `helper(x)`: the function is looked up through the star import.
    `cont = Container(x); cont[0]` and `self.cache[0] = x`: the object's __getitem__ / __setitem__ runs,
    in another file too."""
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/utils.py": """
            def helper(x):
                return x.max().item()
            """,
        "pkg/box.py": """
            class Container:
                def __init__(self, items):
                    self.items = items
                def __getitem__(self, i):
                    return self.items[i].mean().item()
                def __setitem__(self, i, v):
                    print("set", i)
            """,
        "pkg/net.py": """
            from torch import nn
            from .box import Container
            from .utils import *

            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.cache = Container([])
                def forward(self, x):
                    cont = Container([x])
                    self.cache[0] = x
                    return x * cont[0] * helper(x)
            """,
    })
    assert {("pkg/utils.py", 2, "BL103"), ("pkg/box.py", 5, "BL103"), ("pkg/box.py", 7, "BL201")} <= got


def test_operators_len_and_for_on_an_object_of_the_tree_run_its_special_methods(tmp_path):
    """`a + b`, `-a`, `len(a)` and `for t in a` on an object whose class is known run __add__ /
    __radd__, __neg__, __len__ and __iter__ (each measured to break on 2.13 with the body below); a
    function kept in a list on self and called in a loop is followed."""
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/vec.py": """
            class Vec:
                def __init__(self, t):
                    self.t = t
                def __add__(self, other):
                    return Vec(self.t + other.t.mean().item())
                def __neg__(self):
                    print("neg")
                    return self
                def __len__(self):
                    return int(self.t.sum())
                def __iter__(self):
                    print("iter")
                    return iter([self.t])
            def scaled(x):
                return x.max().item()
            """,
        "pkg/net.py": """
            from torch import nn
            from .vec import Vec, scaled

            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.fns = [scaled]
                def forward(self, x):
                    a = Vec(x)
                    b = Vec(x)
                    v = a + b
                    w = -a
                    n = len(a)
                    for t in a:
                        x = x + t
                    for fn in self.fns:
                        x = x * fn(x)
                    return x * n, v, w
            """,
    })
    assert {("pkg/vec.py", 5, "BL103"), ("pkg/vec.py", 7, "BL201"), ("pkg/vec.py", 10, "BL103"),
            ("pkg/vec.py", 12, "BL201"), ("pkg/vec.py", 15, "BL103")} <= got


def test_a_same_file_constructor_is_followed_when_one_file_is_checked():
    from .helpers import codes_by_row

    assert (6, "BL201") in codes_by_row("""
        from torch import nn

        class Box:
            def __init__(self, t):
                print("box")
                self.t = t

        class Net(nn.Module):
            def forward(self, x):
                return x * Box(x).t
        """)
