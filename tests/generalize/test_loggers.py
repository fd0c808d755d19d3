"""Issue #11, item 2: a logger is known by what it is, and any method call on it breaks
(measured on torch 2.13: warning_once added to logging.Logger, isEnabledFor, setLevel, a method of a
logging.Logger subclass: one graph break each)."""
from .helpers import codes_by_row


def test_any_method_of_a_factory_made_logger():
    got = codes_by_row("""
        import torch
        from torch import nn
        from ...utils import logging
        logger = logging.get_logger(__name__)
        class Net(nn.Module):
            def forward(self, x):
                logger.warning_once("once")
                logger.info_once("once")
                if logger.isEnabledFor(10):
                    pass
                return x
        """)
    assert {(8, "BL202"), (9, "BL202"), (10, "BL202")} <= got


def test_logger_subclass_instances_and_annotated_names():
    got = codes_by_row("""
        import logging
        import torch
        from torch import nn
        class ModelLogger(logging.Logger):
            def note(self, msg):
                self.info(msg)
        events = ModelLogger("events")
        class Net(nn.Module):
            def __init__(self, sink: logging.Logger):
                super().__init__()
                self.sink: logging.Logger = sink
            def forward(self, x):
                events.note("x")
                self.sink.setLevel(10)
                return x
        """)
    assert {(14, "BL202"), (15, "BL202")} <= got


def test_a_user_method_that_logs_breaks_where_it_logs():
    got = codes_by_row("""
        import logging
        import torch
        from torch import nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.log = logging.getLogger("net")
            def report(self, msg):
                self.log.debug(msg)
            def forward(self, x):
                self.report("x")
                return x
        """)
    assert (10, "BL202") in got


def test_things_that_are_not_loggers_stay_quiet():
    got = codes_by_row("""
        import torch
        from torch import nn
        class Net(nn.Module):
            def forward(self, x, catalog):
                log = x.log()
                y = log.exp()
                catalog.warning_once("not a logger")
                return y
        """)
    assert not any(code == "BL202" for _, code in got)
