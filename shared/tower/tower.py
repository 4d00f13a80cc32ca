"""The Wizard's Tower and the Wizard King's Ramp: the hidden ring of chambers that
turns a Character into another, and the clock that every transformation winds.

The Tower is a ring of 5 chambers, 4 holding Characters and the empty one at the door
(Characters and Character Cards, 5). Transforming puts the Character into the empty
chamber, turns the ring by the 1 or 2 pulls the player chose and takes out whoever
came to the door (The Wizard's Tower, 2-4). Nobody sees the ring: the result is fixed
by the set-up shuffle, never by a new roll. Each transformation moves the Wizard King
one step up the Ramp (The Wizard King's Ramp); stepping off the last step ends the game.
"""
from __future__ import annotations

from shared.engine import Event
from shared.tower.pack import pack
from shared.tower.state import Tower, TowerState


def transform(state: TowerState, seat: int, pulls: int, events: list[Event], cause: str) -> str | None:
    """Change `seat`'s Character in the Tower, then climb the King. Returns the Ramp
    token the King lands on (to be acted on by `seat`), or None."""
    tower: Tower = state.edit("tower")
    chambers = tower["chambers"]
    player = state.players[seat]
    old = player["character"]
    door = tower["door"]
    chambers[door] = old  # The Wizard's Tower 2: into the empty chamber
    door = (door + pulls) % len(chambers)  # 3: each pull turns the ring one chamber
    new = chambers[door]
    chambers[door] = None  # 4: the new Character comes out; the chamber at the door is empty again
    tower["door"] = door
    player["character"] = new
    events.append({"type": "transformed", "seat": seat, "from": old, "to": new, "pulls": pulls, "cause": cause})
    return climb(state, events, cause)


def climb(state: TowerState, events: list[Event], cause: str) -> str | None:
    """Move the Wizard King one step up (The Wizard King's Ramp). Returns the Ramp
    token on the step he reaches, removed from the Ramp; None on the Tower."""
    state.king += 1
    state.turn["quiet"] = 0
    steps = pack().ramp_steps
    if state.king > steps:
        # Winning the Game: 'The game ends when the Wizard King makes the final step
        # from the Ramp of Time onto the top of the Tower.'
        state.ended = True
        events.append({"type": "king_climbed", "step": state.king, "on_tower": True, "cause": cause})
        return None
    step = str(state.king)
    token = state.edit("ramp").pop(step) if step in state.ramp else None
    events.append({"type": "king_climbed", "step": state.king, "on_tower": False, "cause": cause,
                   "ramp_token": token is not None})
    return token
