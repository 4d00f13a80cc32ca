"""Becoming afflicted or trapped, and what that takes from a player at once.

    Demon Dazed  7.3043 a  all Movement Event Cards are lost (8.51: discarded)
                 7.3043 d  every Animal but a Dragon leaves him
    Dragonbound  7.3051 b  all Event Cards are lost
                 7.3051 h  every Animal but a Dragon leaves him
    trapped      8.51      a Movement Event Card in use is discarded

The movement rules of the afflictions (every space as Mountains, 7.3043 e / 7.3051 f)
are read from `afflictions` by movement.py; the encounters call these
functions when a Demon dazes a player or a Trap catches him. Lair Time makes a
player Dragonbound (12.511, lair.py).
"""
from __future__ import annotations

from shared.wizards.pack import pack
from shared.wizards.state import WizardsState, player

CALM_ANIMALS = ("dragon",)  # 7.3043 d / 7.3051 h: "No animal, other than a Dragon, will come near him"


def discard_events(state: WizardsState, seat: int, kinds: tuple[str, ...] | None, rule: str, events: list) -> None:
    """Discard the Event Cards a player holds of the given types (None: every type)."""
    p = player(state, seat)
    kept = []
    for held in p["events"]:
        if kinds is None or pack().event(held["card"])["type"] in kinds:
            state.edit("discards", "event").append(held["card"])
            events.append({"type": "event_lost", "seat": seat, "card": held["card"], "rule": rule})
        else:
            kept.append(held)
    p["events"] = kept


def send_animal_away(state: WizardsState, seat: int, rule: str, events: list) -> None:
    """Any Animal with the player, except a Dragon, leaves him."""
    p = player(state, seat)
    if p["animal"] is not None and p["animal"]["kind"] not in CALM_ANIMALS:
        events.append({"type": "animal_departs", "seat": seat, "animal": p["animal"]["kind"], "rule": rule})
        p["animal"] = None


def become_demon_dazed(state: WizardsState, seat: int, events: list) -> None:
    """7.3043: Demon Dazed until healed; a and d take effect at once."""
    p = player(state, seat)
    if "demon_dazed" not in p["afflictions"]:
        p["afflictions"].append("demon_dazed")
    discard_events(state, seat, ("movement",), "7.3043 a", events)
    send_animal_away(state, seat, "7.3043 d", events)
    events.append({"type": "demon_dazed", "seat": seat, "rule": "7.3043"})


def become_dragonbound(state: WizardsState, seat: int, reason: str, events: list) -> None:
    """7.3051: Dragonbound until healed; b and h take effect at once. His Lair Time Marker
    has done its work (12.511) and comes off the Calendar."""
    p = player(state, seat)
    if "dragonbound" not in p["afflictions"]:
        p["afflictions"].append("dragonbound")
    discard_events(state, seat, None, "7.3051 b", events)
    send_animal_away(state, seat, "7.3051 h", events)
    p["lair_time"] = None
    events.append({"type": "dragonbound", "seat": seat, "rule": reason})


def become_trapped(state: WizardsState, seat: int, trap: dict, events: list) -> None:
    """8.3 / 8.51 TRAP: the player is caught; a Movement Event Card he is using is discarded (8.51)."""
    player(state, seat)["trap"] = dict(trap)
    discard_events(state, seat, ("movement",), "8.51", events)
    events.append({"type": "trapped", "seat": seat, "trap": dict(trap)})
