"""The Dragon's Lair: Lair Time (12.51-12.513) and the Dragon's movement (12.52, 8.421).

Lair Time: on the turn a player enters the Lair his marker goes on the Calendar
day before the Day Marker's; if the Day Marker comes round to it while he is still
there he becomes Dragonbound. Leaving removes the marker. The Dragon moves to a
random Lair space whenever a player ends his turn in the Lair, and comes home at
once when a player enters the Lair while the Dragon is away.
"""
from __future__ import annotations

from shared.hexgrid import Hex
from shared.wizards import randomspace, resolution
from shared.wizards.afflictions import become_dragonbound
from shared.wizards.dice import ask
from shared.wizards.pack import LAIR_TILE
from shared.wizards.state import Player, WizardsState, hx, ls, player, position, prior_day
from shared.wizards.world import World, world_for


def track(state: WizardsState, w: World, seat: int, old: Hex | None, new: Hex, events: list) -> None:
    """12.511 / 12.513: place or remove the Lair Time Marker as a player enters or leaves."""
    p = player(state, seat)
    inside, was = w.in_lair(new), old is not None and w.in_lair(old)
    if inside and p["lair_time"] is None:
        p["lair_time"] = prior_day(state.calendar["day"])
        events.append({"type": "lair_time_placed", "seat": seat, "day": p["lair_time"]})
    elif not inside and was and p["lair_time"] is not None:
        p["lair_time"] = None
        events.append({"type": "lair_time_removed", "seat": seat})


def move_back(p: Player, days: int) -> None:
    """12.512: each Dragon encounter on the tile moves the marker BACK a day (three with Dragon Taming)."""
    day = p["lair_time"]
    assert day is not None, "his Lair Time Marker is on the Calendar"
    for _ in range(days):
        day = prior_day(day)
    p["lair_time"] = day


def dragon_away(state: WizardsState, w: World) -> bool:
    d = hx(state.dragon)
    return d is not None and not w.in_lair(d)


def recall_if_away(state: WizardsState, w: World, new: Hex) -> None:
    """8.421: the Dragon stays away until a player enters the Lair tile, then returns."""
    if w.in_lair(new) and dragon_away(state, w) and {"do": "dragon_return"} not in state.interrupts:
        state.interrupts.append({"do": "dragon_return"})


def dragon_goes_to(state: WizardsState, h: Hex, reason: str, events: list) -> None:
    """8.42: the Dragon Marker moves into a player's space (a Random Encounter or Animal
    Summoning; randoms.py calls this). 8.421: off his tile he stays there until a player enters
    the Lair tile, and if a player is on it already he returns to a random Lair space at once."""
    w = world_for(state)
    state.replace("dragon", ls(h))
    events.append({"type": "dragon_leaves_lair" if not w.in_lair(h) else "dragon_moved_to_player", "reason": reason,
                   "to": ls(h), "space": w.space_name(h)})
    someone_inside = any(p["at"] is not None and w.in_lair(position(p)) for p in state.players)
    if dragon_away(state, w) and someone_inside and {"do": "dragon_return"} not in state.interrupts:
        state.interrupts.append({"do": "dragon_return"})


def ask_dragon_move(state: WizardsState, reason: str, then_step: str) -> None:
    """Roll the Dragon a random space of its tile (SPECIFIC Territory: exact space only, 4.22)."""
    ask(state, randomspace.space_pools(), {"do": "dragon_moved", "reason": reason, "resume": then_step})


def on_dragon_moved(state: WizardsState, then: dict, faces: list, events: list) -> None:
    w = world_for(state)
    got = randomspace.read({"territory": LAIR_TILE}, faces, [])
    assert got is not None, "a SPECIFIC Territory is never rolled over"
    h = w.hex_of[got]
    state.replace("dragon", ls(h))
    met = [p["seat"] for p in state.players if hx(p["at"]) == h]
    events.append({"type": "dragon_moved", "reason": then["reason"], "to": ls(h), "space": w.space_name(h),
                   "dice": [f[0] for f in faces]})
    for seat in met:  # 12.52 / 7.305: a player in that space encounters the Dragon immediately
        events.append({"type": "encounter_due", "seat": seat, "space": ls(h), "specific": [{"kind": "dragon"}],
                       "random": False, "rule": then["reason"]})
    if then.get("resume"):
        state.step = then["resume"]
        items = [{"do": "dragon", "seat": s, "at": ls(h), "rule": then["reason"]} for s in met]
        if items:
            resolution.begin(state, items, then["resume"])


def day_check(state: WizardsState, events: list) -> None:
    """12.511: the Day Marker has landed on a Lair Time Marker of a player still in the Lair."""
    w = world_for(state)
    day = state.calendar["day"]
    for p in state.players:
        if p["lair_time"] == day and p["at"] is not None and w.in_lair(position(p)):
            become_dragonbound(state, p["seat"], "12.511", events)
