"""Reading a Python file as text, with its declared encoding (PEP 263): shared by the analysis (the
call graph reads files it reaches) and the driver."""
from __future__ import annotations

import io
import tokenize


def read_source_with_encoding(path: str) -> tuple[str, str]:
    """Read a Python file as text with its declared encoding (PEP 263), or raise a one-line
    ValueError saying why it cannot be linted."""
    with open(path, "rb") as handle:
        data = handle.read()
    if b"\x00" in data:
        raise ValueError("binary file (NUL bytes), not Python source")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except SyntaxError as exc:
        if "encoding declaration" in str(exc):
            raise ValueError("not valid utf-8 text and no PEP 263 encoding declaration") from None
        raise ValueError(f"cannot decode: {exc}") from None
    except LookupError as exc:
        raise ValueError(f"cannot decode: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"not valid {exc.encoding} text (byte {exc.start})") from None
    if text.startswith("\ufeff"):
        text = text[1:]
        encoding = "utf-8-sig"
    return text, encoding


def read_source(path: str) -> str:
    return read_source_with_encoding(path)[0]
