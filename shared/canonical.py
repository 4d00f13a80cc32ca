"""The platform's one canonical JSON: the bytes every event body is hashed as.

`canonical(value)` is RFC 8785, the JSON Canonicalization Scheme (JCS), for the values
the platform writes: objects with string keys, arrays, strings, booleans, null,
integers of magnitude below 2**53 and finite floats. Concretely:

* no whitespace: "," between items, ":" between a key and its value;
* object keys sorted by their UTF-16 code units (for keys within the Basic Multilingual
  Plane, which are all the platform writes, that is plain code point order);
* strings as UTF-8, escaping only '"', '\\', and the control characters below U+0020
  (as \\b \\t \\n \\f \\r, the others as \\u00xx with lowercase hex); everything else,
  non-ASCII included, is written as itself;
* integers in decimal; floats as ECMAScript writes a Number (1.0 is "1", 1e21 is
  "1e+21", 0.000001 is "0.000001", 1e-7 is "1e-7");
* NaN, Infinity, integers of magnitude 2**53 or more, non-string keys and strings that
  are not valid Unicode (lone surrogates) are refused with ValueError: JCS cannot
  write them, and no verifier could reproduce them.

Every event body written before this module existed was `json.dumps(body,
sort_keys=True, separators=(",", ":"), ensure_ascii=False)`; for every value above
except floats that is the same text byte for byte (tests/dice/test_canonical.py holds it
against the `rfc8785` package and the old recipe), and the platform wrote no floats into
a log. Chains are verified over the stored text of each event, never re-encoded, so old
logs verify whatever this function writes.
"""
from __future__ import annotations

import json
import math
from typing import Any

MAX_SAFE_INTEGER = (1 << 53) - 1


def canonical(value: Any) -> str:
    """The canonical JSON text of `value` (see the module docstring)."""
    if _needs_slow_path(value):
        return "".join(_encode(value))
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def canonical_bytes(value: Any) -> bytes:
    return canonical(value).encode("utf-8")


def _needs_slow_path(value: Any) -> bool:
    """Check `value` is writable; True when it holds a float or a key outside the BMP (the two
    things the standard library writes differently from JCS)."""
    slow = False
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            if not node.isascii():  # ASCII is always valid text: the common case costs one C call
                _check_text(node)
        elif isinstance(node, bool) or node is None:
            continue
        elif isinstance(node, int):
            if abs(node) > MAX_SAFE_INTEGER:
                raise ValueError(f"the integer {node} is beyond 2**53-1: canonical JSON cannot write it exactly")
        elif isinstance(node, float):
            if not math.isfinite(node):
                raise ValueError(f"{node} is not a finite number: canonical JSON cannot write it")
            slow = True
        elif isinstance(node, dict):
            for key in node:
                if not isinstance(key, str):
                    raise ValueError(f"an object key must be a string, not {key!r}")
                if not key.isascii() and max(key) > "\uffff":
                    slow = True
            stack.extend(node)
            stack.extend(node.values())
        elif isinstance(node, (list, tuple)):
            stack.extend(node)
        else:
            raise ValueError(f"{type(node).__name__} is not a JSON value")
    return slow


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("a string holds a lone surrogate: it is not Unicode text") from None


def _encode(node: Any):
    if isinstance(node, str):
        yield json.dumps(node, ensure_ascii=False)
    elif node is True:
        yield "true"
    elif node is False:
        yield "false"
    elif node is None:
        yield "null"
    elif isinstance(node, int):
        yield str(node)
    elif isinstance(node, float):
        yield number(node)
    elif isinstance(node, dict):
        yield "{"
        for i, key in enumerate(sorted(node, key=lambda k: k.encode("utf-16-be"))):
            if i:
                yield ","
            yield json.dumps(key, ensure_ascii=False)
            yield ":"
            yield from _encode(node[key])
        yield "}"
    else:
        yield "["
        for i, item in enumerate(node):
            if i:
                yield ","
            yield from _encode(item)
        yield "]"


def number(x: float) -> str:
    """A finite float as ECMAScript's Number.prototype.toString writes it (RFC 8785, 3.2.2.3)."""
    if not math.isfinite(x):
        raise ValueError(f"{x} is not a finite number")
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    mantissa, _, exp = repr(abs(x)).partition("e")  # repr: the shortest digits that read back as x
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0")
    point = len(whole) + (int(exp) if exp else 0)  # x = 0.<whole+frac> * 10**point
    point -= len(whole + frac) - len((whole + frac).lstrip("0"))
    digits = digits.rstrip("0")
    k, n = len(digits), point
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        text = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if e > 0 else "-") + str(abs(e))
    return sign + text
