"""Pennants: points and ownership. Only one colour on a Castle at a time (The 4 Wizards
and Their Pennants) and 25 per colour (Equipment): a Wizard never places more than
he has left in his supply, so every placement is clipped to the supply."""
from __future__ import annotations

from shared.engine import Event
from shared.tower.state import Territory, TowerState, wizard_of


def seat_of(state: TowerState, wizard: str) -> int | None:
    for seat, player in enumerate(state.players):
        if player["wizard"] == wizard:
            return seat
    return None


def holder(state: TowerState, territory: str) -> str | None:
    """The Wizard whose Pennants fly on this Castle, or None."""
    p = state.board[territory]["pennants"]
    return p["wizard"] if p else None


def count(state: TowerState, territory: str) -> int:
    p = state.board[territory]["pennants"]
    return p["count"] if p else 0


def supply(state: TowerState, seat: int) -> int:
    return state.players[seat]["supply"]


def place(state: TowerState, territory: str, seat: int, wanted: int, events: list[Event], why: str) -> int:
    """Place up to `wanted` of `seat`'s Pennants on a Castle that is empty or already his.
    Returns how many went on (fewer when the supply runs short)."""
    player = state.players[seat]
    wizard = wizard_of(player)
    square = state.board[territory]
    assert square["castle"], f"{territory} has no Castle"
    assert square["pennants"] is None or square["pennants"]["wizard"] == wizard, "one colour per Castle"
    n = max(0, min(wanted, player["supply"]))
    if n:
        player["supply"] -= n
        square = state.edit("board", territory)
        held = square["pennants"]
        square["pennants"] = {"wizard": wizard, "count": n + (held["count"] if held else 0)}
    events.append({"type": "pennants_placed", "territory": territory, "seat": seat, "wizard": player["wizard"],
                   "count": n, "wanted": wanted, "total": count(state, territory), "why": why})
    return n


def send_home(state: TowerState, territory: str, events: list[Event], why: str) -> None:
    """Give a Castle's Pennants back to their Wizard's supply; the Castle is empty."""
    p = state.board[territory]["pennants"]
    if p is None:
        return
    seat = seat_of(state, p["wizard"])
    assert seat is not None, f"{p['wizard']} Pennants, but no seat plays that Wizard"
    state.players[seat]["supply"] += p["count"]
    state.edit("board", territory)["pennants"] = None
    events.append({"type": "pennants_returned", "territory": territory, "seat": seat, "wizard": p["wizard"],
                   "count": p["count"], "why": why})


def scores(state: TowerState) -> list[int]:
    """Object: Pennants of each seat's colour on the Castles it holds."""
    totals = {wizard_of(player): 0 for player in state.players}
    for square in state.board.values():
        p = square["pennants"]
        if p:
            totals[p["wizard"]] += p["count"]
    return [totals[wizard_of(player)] for player in state.players]


def is_home(square: Territory) -> bool:
    """A Home Castle (its token stays face up once turned over): never attacked, never
    protected (Home Castles, Remember)."""
    token = square["token"]
    return token is not None and token["up"] and token["id"].startswith("home:")


def castles_held(state: TowerState) -> list[str]:
    """Castles with Pennants on them, by territory id."""
    return sorted(t for t, sq in state.board.items() if sq["pennants"])
