"""JSON from clients, parsed with limits: its size, and how deep it nests.

The standard parser recurses once per level and fails with RecursionError (an
INTERNAL) near a thousand; orjson refuses past 1024 with a decode error, and the
walk below refuses anything past MAX_DEPTH, so a hostile text is INVALID_ARGUMENT.
"""
from __future__ import annotations

import orjson

from services.core.errors import BadRequest

MAX_DEPTH = 32


def depth(value) -> int:
    """How deep containers nest in `value` (a scalar is 0), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict):
            children = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((c, level + 1) for c in children)
    return deepest


def json_object(text: str, name: str, max_bytes: int) -> dict:
    """A request field that holds a JSON object, checked: BadRequest names the field."""
    if len(text) > max_bytes:
        raise BadRequest(f"{name} is at most {max_bytes} bytes", name)
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        raise BadRequest(f"{name} is not JSON (or nests deeper than {MAX_DEPTH})", name) from None
    if not isinstance(value, dict):
        raise BadRequest(f"{name} must be a JSON object", name)
    if depth(value) > MAX_DEPTH:
        raise BadRequest(f"{name} nests deeper than {MAX_DEPTH} levels", name)
    return value
