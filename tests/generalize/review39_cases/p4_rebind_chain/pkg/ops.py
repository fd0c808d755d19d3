from .core import clip as _clip

_mid = _clip
clip = _mid
