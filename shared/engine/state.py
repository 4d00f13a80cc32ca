"""Typed engine states, copied only where a step changes them.

Every game's state is a slotted dataclass named for the game (`TowerState`, ...)
whose fields are the game's nouns. A field holds JSON-ready data (dicts described by
TypedDicts, lists, strings, numbers, booleans, None), so the state encodes exactly:
`encode` is the canonical JSON of the fields by name, and `decode` reads it back.

Copying. `apply` never changes its input; it works on `draft = state.successor()`:

* fields named in `HOT` (small, changed by most steps: whose turn, the task stack)
  are copied for every draft;
* every other field is shared with the input until a rule asks to change it with
  `draft.edit(name, key, ...)`, which copies the containers along that path once per
  draft (each on the way down shallowly, the last one whole) and returns the last;
  siblings stay shared. Changing a shared field without `edit` would change the
  input: the engine contract's property tests replay every step and check that the
  input still encodes to the same bytes.

This is path copying, as persistent data structures do it: a battle that changes one
Territory copies that Territory and the dict that holds it, not the whole board.
"""
from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Self

import orjson

Key = str | int


def tree_copy(value: Any) -> Any:
    """A deep copy of JSON-ready data: a round trip through orjson, which is what storing and loading
    a state does to it anyway, and in C about 2.5 times faster than walking the tree in Python (a
    Wizards draft's players, markers and Calendar). JSON-ready means str keys, lists (never tuples)
    and finite numbers: the engine contract's tests check decode(encode(s)) == s for every state a
    game reaches; a dict with other keys is refused here (TypeError), not copied differently."""
    if type(value) in _CONTAINERS:
        return orjson.loads(orjson.dumps(value))
    return value


_CONTAINERS = (dict, list)


class GameState:
    """Base of every game's state dataclass (declare subclasses with
    `@dataclasses.dataclass(slots=True, eq=True)`)."""

    __slots__ = ("_owned",)
    _owned: tuple[set, set]
    HOT: ClassVar[frozenset[str]] = frozenset()
    # fields added after states of the game were first stored, with what a state stored before
    # them means: a match in play when the platform is upgraded loads and plays on
    ADDED: ClassVar[dict[str, Any]] = {}

    # --- copying ------------------------------------------------------------------
    def successor(self) -> Self:
        """The draft an action changes: HOT fields copied, the rest shared until edited."""
        new = object.__new__(type(self))
        hot = self.HOT
        for name in _field_names(type(self)):
            value = getattr(self, name)
            object.__setattr__(new, name, tree_copy(value) if name in hot else value)
        new._owned = (set(), set())  # paths copied whole, paths copied one level
        self._owned = (set(), set())  # the containers are shared now: an edit of either copies
        return new

    def edit(self, name: str, *path: Key) -> Any:
        """The container at `self.<name>[path...]`, made this draft's own and returned
        for changing in place. Call it before changing a field that is not HOT."""
        container = getattr(self, name)
        owned = getattr(self, "_owned", None)
        if owned is None or name in self.HOT:  # nothing is shared with another state
            for key in path:
                container = container[key]
            return container
        whole, shallow = owned
        steps = (name, *path)
        parent: Any = None
        for depth in range(1, len(steps) + 1):
            prefix = steps[:depth]
            if depth > 1:
                container = parent[steps[depth - 1]]
            if prefix in whole:
                for key in steps[depth:]:
                    container = container[key]
                return container
            if depth == len(steps):
                copy = tree_copy(container)
                whole.add(prefix)
            elif prefix in shallow:
                parent = container
                continue
            else:
                copy = dict(container) if type(container) is dict else list(container)
                shallow.add(prefix)
            if depth == 1:
                object.__setattr__(self, name, copy)
            else:
                parent[steps[depth - 1]] = copy
            parent = container = copy
        return container

    def replace(self, name: str, value: Any) -> None:
        """Set a field to a value the caller built afresh (this draft's own from now on)."""
        object.__setattr__(self, name, value)
        owned = getattr(self, "_owned", None)
        if owned is not None:
            owned[0].add((name,))

    # --- bytes and JSON -----------------------------------------------------------
    def to_json(self) -> dict:
        """The state as JSON-ready data (shared with the state, not copied)."""
        return {name: getattr(self, name) for name in _field_names(type(self))}

    @classmethod
    def from_json(cls, data: dict) -> Self:
        names = _field_names(cls)
        missing_added = [name for name in cls.ADDED if name not in data]
        if missing_added:
            data = dict(data, **{name: tree_copy(cls.ADDED[name]) for name in missing_added})
        if set(data) != set(names):
            missing, extra = sorted(set(names) - set(data)), sorted(set(data) - set(names))
            raise ValueError(f"not a {cls.__name__}: missing {missing}, unknown {extra}")
        return cls(**data)

    def encode(self) -> bytes:
        return canonical_bytes(self.to_json())

    @classmethod
    def decode(cls, data: bytes) -> Self:
        return cls.from_json(orjson.loads(data))


def canonical_bytes(value: Any) -> bytes:
    """JSON with sorted keys and no spaces, UTF-8: equal values give equal bytes."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names
