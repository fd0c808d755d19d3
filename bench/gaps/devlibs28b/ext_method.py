import hashlib
import torch

HASHER = hashlib.sha1()   # a C-extension object, like tiktoken's CoreBPE (Rust) that Tokenizer.decode calls


def text_of(tokens):
    h = HASHER.copy()
    h.update(bytes(tokens))        # line 9: a method of a C-extension object
    return h.hexdigest()


@torch.compile(backend="eager")
def main(x):
    x = x + 1
    return x, text_of([1, 2, 3])

ARGS = (torch.randn(4),)
