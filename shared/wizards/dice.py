"""Asking for dice: a state that needs randomness records the pools and what to do
with the faces ("then"), and waits. The engine never rolls (shared.engine.chance)."""
from __future__ import annotations

from typing import Sequence

from shared.engine import ChanceRequest, DicePool
from shared.wizards.state import WizardsState


def ask(state: WizardsState, pools: Sequence[DicePool], then: dict, secret: bool = False) -> None:
    """Make the state wait for `pools`; `then` names the handler and its arguments."""
    assert state.chance is None, f"already waiting for {state.chance['then']}"
    state.chance = {"request": ChanceRequest(tuple(pools), secret).to_dict(), "then": then}
    state.await_ = None


def request_of(state: WizardsState) -> ChanceRequest | None:
    c = state.chance
    return ChanceRequest.from_dict(c["request"]) if c else None


def split(faces: Sequence[Sequence], sizes: Sequence[int]) -> list[list]:
    """Cut a flat list of pool outcomes into consecutive groups of the given sizes."""
    out, i = [], 0
    for n in sizes:
        out.append(list(faces[i:i + n]))
        i += n
    return out
