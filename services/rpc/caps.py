"""Size caps on every request field, checked at the edge before any handler runs.

Every string field of every request has a length cap (ids and names 128 or less, JSON
texts 16 KB) and every repeated field a count cap, so no client can make a handler
allocate, store or echo more than these. A field over its cap is answered
INVALID_ARGUMENT naming the field and the cap, never echoing the value. The caps
are by field name, the same in every service; a name not listed gets the default.
"""
from __future__ import annotations

from google.protobuf.descriptor import FieldDescriptor

DEFAULT_TEXT = 128
TEXT = {
    # JSON texts: the handlers parse them with a depth limit too (services/core/jsontext.py)
    "action_json": 16_384, "query_json": 16_384, "options_json": 16_384,
    "client_seed": 256, "purpose": 200, "token": 256, "page_token": 64, "password": 256,
    "name": 64, "invite_code": 64, "display_name": 64, "faces": 64,
}
DEFAULT_REPEATED = 64
REPEATED = {"pools": 2000, "faces": 1000}
MAX_DEPTH = 4  # requests nest messages at most this deep (CreateMatchRequest.seats, RollRequest.pools)


class FieldTooLarge(ValueError):
    def __init__(self, message: str, field: str = ""):
        super().__init__(message)
        self.field = field


def check(message, depth: int = 0) -> None:
    """Raise FieldTooLarge naming the first field of `message` over its cap."""
    if depth > MAX_DEPTH:
        raise FieldTooLarge("the request nests too deep")
    for field, value in message.ListFields():
        name = field.name
        if field.is_repeated:
            cap = REPEATED.get(name, DEFAULT_REPEATED)
            if len(value) > cap:
                raise FieldTooLarge(f"{name} holds at most {cap} items, not {len(value)}", name)
            items = value
        else:
            items = (value,)
        if field.type == FieldDescriptor.TYPE_STRING or field.type == FieldDescriptor.TYPE_BYTES:
            cap = TEXT.get(name, DEFAULT_TEXT)
            for item in items:
                if len(item) > cap:
                    raise FieldTooLarge(f"{name} is at most {cap} characters, not {len(item)}", name)
        elif field.type == FieldDescriptor.TYPE_MESSAGE:
            for item in items:
                check(item, depth + 1)
