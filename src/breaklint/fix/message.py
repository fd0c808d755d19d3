"""A constant error message from a computed one (`f"expected {n}"`, `"{} bad".format(t)`, `"%d" % n`).

Measured on torch 2.13 (CPU, eager / aot_eager / inductor): an assert or a raise-check whose message is
computed breaks the graph even when the values are shapes; a constant one is traced. The values cannot
be kept, so each placeholder is replaced by the text of the expression it would show (`expected n`):
the message reads as the original did, with no `{}` or `%d` left unfilled.
"""
from __future__ import annotations

import ast
import re
import string
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from ..rules.base import NodeContext

# printf-style conversions: %(name)s, %-8.3f, %%.
_PERCENT = re.compile(r"%(?:\((?P<key>[^)]*)\))?[#0\- +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?(?P<kind>[diouxXeEfFgGcrsab%])")


def constant_message(message: ast.AST, ctx: "NodeContext") -> Optional[str]:
    """The message as a constant string with every placeholder replaced by its expression's text,
    else None (a message that is not a literal template: a name, a call of another kind)."""
    if isinstance(message, ast.Constant) and isinstance(message.value, str):
        return message.value
    if isinstance(message, ast.JoinedStr):
        return _joined(message, ctx)
    if isinstance(message, ast.Call) and isinstance(message.func, ast.Attribute) and message.func.attr == "format" \
            and isinstance(message.func.value, ast.Constant) and isinstance(message.func.value.value, str):
        return _format(message.func.value.value, message, ctx)
    if isinstance(message, ast.BinOp) and isinstance(message.op, ast.Mod) \
            and isinstance(message.left, ast.Constant) and isinstance(message.left.value, str):
        return _percent(message.left.value, message.right, ctx)
    return None


# CUDA refuses a torch._assert_async message of 255 bytes or more ("Message length must be smaller
# than 255", measured on an H100 with torch 2.11 through Inductor: PyG's sortedness check crashed the
# fixed model). Dynamo turns a traced assert into the same call, so both the trap and the assert fix cap it.
MAX_DEVICE_MESSAGE_BYTES = 200


def device_message(text: str) -> str:
    """`text` cut at a word (or a character) so that its UTF-8 form fits a device-side assert."""
    if len(text.encode("utf-8")) <= MAX_DEVICE_MESSAGE_BYTES:
        return text
    room = MAX_DEVICE_MESSAGE_BYTES - len(" ...")
    cut = text.encode("utf-8")[:room].decode("utf-8", errors="ignore")
    if " " in cut[len(cut) // 2:]:
        cut = cut[:cut.rindex(" ")]
    return cut.rstrip() + " ..."


def _shown(value: ast.AST, ctx: "NodeContext") -> str:
    """What a placeholder becomes: a constant's own text, else the expression's source on one line."""
    if isinstance(value, ast.Constant):
        return str(value.value)
    return " ".join(ctx.segment(value).split())


def literal(text: str) -> str:
    """A string literal for `text`, in double quotes where it can be (black's and ruff's style)."""
    quoted = repr(text)
    if quoted.startswith("'") and '"' not in text:
        quoted = '"' + quoted[1:-1].replace("\\'", "'") + '"'
    return quoted


def _joined(node: ast.JoinedStr, ctx: "NodeContext") -> str:
    parts = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value))
        elif isinstance(value, ast.FormattedValue):
            parts.append(_shown(value.value, ctx))
    return "".join(parts)


def _format(template: str, call: ast.Call, ctx: "NodeContext") -> Optional[str]:
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None  # `.format(*args)` / `**kw`: which expression fills which field is unknown
    keywords = {k.arg: k.value for k in call.keywords}
    parts, auto = [], 0
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError:
        return None  # a template that would fail at run time anyway
    for literal, field, _spec, _conversion in fields:
        parts.append(literal)
        if field is None:
            continue
        key = re.split(r"[.\[]", field, maxsplit=1)[0]
        rest = field[len(key):]
        if key == "":
            value = call.args[auto] if auto < len(call.args) else None
            auto += 1
        elif key.isdigit():
            value = call.args[int(key)] if int(key) < len(call.args) else None
        else:
            value = keywords.get(key)
        if value is None:
            return None
        parts.append(_shown(value, ctx) + rest)
    return "".join(parts)


def _percent(template: str, right: ast.AST, ctx: "NodeContext") -> Optional[str]:
    if isinstance(right, ast.Tuple):
        values = list(right.elts)
    elif isinstance(right, ast.Dict):
        values = None
        mapping = {k.value: v for k, v in zip(right.keys, right.values)
                   if isinstance(k, ast.Constant) and isinstance(k.value, str)}
    else:
        values = [right]
    parts, index, last = [], 0, 0
    for match in _PERCENT.finditer(template):
        parts.append(template[last:match.start()])
        last = match.end()
        if match.group("kind") == "%":
            parts.append("%")
            continue
        if match.group("key") is not None:
            if values is not None:
                return None
            value = mapping.get(match.group("key"))
        else:
            if values is None or index >= len(values):
                return None
            value = values[index]
            index += 1
        if value is None:
            return None
        parts.append(_shown(value, ctx))
    parts.append(template[last:])
    return "".join(parts)
