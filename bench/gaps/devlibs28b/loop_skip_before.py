import torch

def apply(logits, tokens, begin):
    for k in range(tokens.shape[0]):
        sampled = tokens[k, begin:]
        seq = [t for t in sampled.tolist()]       # line 6: BL104; empty at the first call, so no break there
        stamps = sampled[sampled.ge(5)]            # line 7: dynamic shape in a loop -> Dynamo skips this frame
        if len(seq) > 0 and stamps.numel() > 0:
            logits[k, 0] = -1.0

@torch.compile(backend="eager")
def main(logits, tokens):
    for step in range(3):
        apply(logits, tokens, 3)                   # first call: tokens has only the 3 prompt columns
        tokens = torch.cat([tokens, logits.argmax(-1, keepdim=True)], dim=-1)
    return tokens

ARGS = (torch.randn(2, 10), torch.randint(0, 10, (2, 3)))
