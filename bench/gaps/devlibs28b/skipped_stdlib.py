import locale
import zlib
import torch

def compression_ratio(text):
    text_bytes = text.encode("utf-8")
    return len(text_bytes) / len(zlib.compress(text_bytes))   # line 7: zlib.compress is marked as skipped

def encoding():
    return locale.getpreferredencoding(False)                # line 10: so is locale.getpreferredencoding

@torch.compile(backend="eager")
def main(x):
    x = x + 1
    r = compression_ratio("hello hello hello")
    e = encoding()
    return x * r, e

ARGS = (torch.randn(4),)
