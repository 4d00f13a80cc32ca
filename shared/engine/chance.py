"""Explicit chance steps: what dice an engine waits for, and helpers to use them.

An engine never rolls. When the rules need randomness the state says which dice,
how many and for what (a ChanceRequest); whoever drives the engine rolls them
(the dice service, scripted dice in a test, a sampler in AI search) and hands the
faces back through `apply_chance`. Shuffles and random draws are chance steps too,
expressed as dice so the audit log covers every random decision of a match.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, TypeVar

Face = int | str
T = TypeVar("T")


@dataclass(frozen=True)
class DicePool:
    """`count` dice, each showing one of `faces`, rolled for `purpose`.

    Standard dice list their pips: a d6 is faces (1, 2, 3, 4, 5, 6). Custom dice
    list their face labels. The dice service maps each roll to an index into
    `faces` without modulo bias."""

    purpose: str
    count: int
    faces: tuple[Face, ...]

    def to_dict(self) -> dict:
        return {"purpose": self.purpose, "count": self.count, "faces": list(self.faces)}

    @classmethod
    def from_dict(cls, d: dict) -> "DicePool":
        return cls(d["purpose"], int(d["count"]), tuple(d["faces"]))


@dataclass(frozen=True)
class ChanceRequest:
    """The dice a state waits for. `secret` rolls decide hidden things (a shuffle
    of face-down tokens); their faces are shown to seats only when the match ends."""

    pools: tuple[DicePool, ...]
    secret: bool = False

    def to_dict(self) -> dict:
        return {"pools": [p.to_dict() for p in self.pools], "secret": self.secret}

    @classmethod
    def from_dict(cls, d: dict) -> "ChanceRequest":
        return cls(tuple(DicePool.from_dict(p) for p in d["pools"]), bool(d.get("secret", False)))

    def check(self, outcome: Sequence[Sequence[Face]]) -> None:
        """Raise WrongChanceOutcome unless `outcome` answers this request face for face."""
        from shared.engine.errors import WrongChanceOutcome

        if len(outcome) != len(self.pools):
            raise WrongChanceOutcome(f"expected {len(self.pools)} pools, got {len(outcome)}")
        for pool, faces in zip(self.pools, outcome):
            if len(faces) != pool.count:
                raise WrongChanceOutcome(f"pool {pool.purpose!r}: expected {pool.count} dice, got {len(faces)}")
            for face in faces:
                if face not in pool.faces:
                    raise WrongChanceOutcome(f"pool {pool.purpose!r}: {face!r} is not a face of this die")


def d6(purpose: str, count: int = 1) -> DicePool:
    return DicePool(purpose, count, (1, 2, 3, 4, 5, 6))


def d8(purpose: str, count: int = 1) -> DicePool:
    return DicePool(purpose, count, (1, 2, 3, 4, 5, 6, 7, 8))


def shuffle_request(purpose: str, n: int) -> list[DicePool]:
    """Pools for a Fisher-Yates shuffle of n items: one die of n faces, one of n-1, ... 2.

    Append them to a ChanceRequest; hand the matching outcome slices to apply_shuffle."""
    return [DicePool(f"{purpose} {i + 1}/{n - 1}", 1, tuple(range(1, k + 1))) for i, k in enumerate(range(n, 1, -1))]


def apply_shuffle(items: Sequence[T], draws: Sequence[Sequence[Face]]) -> list[T]:
    """Shuffle `items` with the faces of the pools made by shuffle_request(len(items))."""
    pool = list(items)
    out: list[T] = []
    for faces in draws:
        out.append(pool.pop(int(faces[0]) - 1))
    out.extend(pool)
    return out
