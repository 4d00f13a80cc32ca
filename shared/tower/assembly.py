"""Assembly and Setup, and the Variations for 2 and 3 Players, as three chance steps.

1. `removals` (2-3 players, public): 'Eliminate any 1 [2] Character(s) completely',
   with its Home Castle token, and 'Eliminate one [2] Wizard(s)' whose symbol tokens stay
   on the board. The rulebook leaves the pick to the players; here chance picks, so a
   match needs no negotiation. Seats take the Wizards left in pack order.
2. `sites` (public): the castle tokens of each terrain go on 'any 6 of the matching
   color territories' (fewer when a Home Castle token was removed: 23 or 22 Castles);
   and one Ramp token on a random step of each of the Ramp's 6 stretches ('It's more
   fun if you space them out').
3. `secret`: shuffles nobody may see: the Characters (the first 4 into the Tower's ring,
   'the empty chamber at the door', the rest dealt to the seats face up), each terrain's
   castle tokens onto its sites, the 15 spell tokens onto the remaining territories (a
   territory left over with 3 or 2 players stays empty) and the 6 Ramp tokens onto their steps.
"""
from __future__ import annotations

from typing import Sequence

from shared.engine import ChanceRequest, DicePool, Event, InvalidConfig, MatchConfig, apply_shuffle, shuffle_request
from shared.engine.chance import Face
from shared.tower.pack import ROCKY, TERRAINS, pack
from shared.tower.state import TowerState


def draws(purpose: str, n: int, k: int) -> list[DicePool]:
    """Pools to draw k of n items without replacement (the first k steps of a shuffle)."""
    return [DicePool(f"{purpose} {i + 1}/{k}", 1, tuple(range(1, n - i + 1))) for i in range(k)]


def setup(config: MatchConfig) -> TowerState:
    p = pack()
    if not isinstance(config.seats, int) or not 2 <= config.seats <= 4:
        raise InvalidConfig("Tower of the Wizard King is played by 2, 3 or 4 players")
    if config.variant != "standard":
        raise InvalidConfig(f"unknown variant {config.variant!r}; only 'standard'")
    if config.options:
        raise InvalidConfig(f"no options are known: {sorted(config.options)}")
    n = config.seats
    return TowerState(
        seats=n,
        stage="removals" if n < 4 else "sites",
        removed={"characters": [], "wizards": []},
        players=[{"wizard": p.wizard_ids[s] if n == 4 else None, "character": None, "at": ROCKY,
                  "supply": p.pennants} for s in range(n)],
        tower={"chambers": [None] * p.chambers, "door": 0},
        king=0,
        ramp={},
        board={t: {"castle": False, "token": None, "pennants": None, "protected": False} for t in p.territory_ids},
        sites=[],
        turn={"seat": p.first_player, "regular": p.first_player, "extra": [], "played": 0, "quiet": 0},
        tasks=[],
        ended=False,
    )


def request(state: TowerState) -> ChanceRequest:
    p = pack()
    stage = state.stage
    if stage == "removals":
        k = 4 - state.seats
        return ChanceRequest(tuple(draws("eliminate a Character", len(p.character_names), k)
                                   + draws("eliminate a Wizard", len(p.wizard_ids), k)))
    if stage == "sites":
        pools = []
        for terrain in TERRAINS:
            pools += draws(f"{terrain} castle sites", len(p.by_terrain[terrain]), len(_castle_tokens(state, terrain)))
        stretch = p.ramp_steps // p.ramp_stretches
        pools += [DicePool(f"Ramp token step in stretch {i + 1}", 1, tuple(range(1, stretch + 1)))
                  for i in range(p.ramp_stretches)]
        return ChanceRequest(tuple(pools))
    pools = shuffle_request("Characters: Tower and deal", len(_characters(state)))
    for terrain in TERRAINS:
        pools += shuffle_request(f"{terrain} castle tokens", len(_castle_tokens(state, terrain)))
    pools += shuffle_request("spell tokens", len(_spell_territories(state)))
    pools += shuffle_request("Ramp tokens", len(p.ramp_tokens()))
    return ChanceRequest(tuple(pools), secret=True)


def _characters(state: TowerState) -> list[str]:
    return [c for c in pack().character_names if c not in state.removed["characters"]]


def _castle_tokens(state: TowerState, terrain: str) -> list[str]:
    """The terrain's castle tokens still in the game: none for an eliminated Character's Home Castle."""
    return pack().castle_tokens_of(terrain, state.removed["characters"])


def _spell_territories(state: TowerState) -> list[str]:
    return [t for t in pack().territory_ids if not state.board[t]["castle"]]


def apply(state: TowerState, outcome: Sequence[Sequence[Face]], events: list[Event]) -> None:
    """Continue set-up with the faces rolled for request(state). Changes `state`, a draft
    (its board, Tower, Ramp, sites and removals through edit and replace)."""
    p = pack()
    stage = state.stage
    if stage == "removals":
        k = 4 - state.seats
        gone = apply_shuffle(p.character_names, outcome[:k])[:k]
        absent = apply_shuffle(p.wizard_ids, outcome[k:])[:k]
        state.replace("removed", {"characters": sorted(gone), "wizards": sorted(absent)})
        left = [w for w in p.wizard_ids if w not in absent]
        for seat, player in enumerate(state.players):
            player["wizard"] = left[seat]
        events.append({"type": "eliminated", "characters": sorted(gone), "wizards": sorted(absent)})
        state.stage = "sites"
        return
    if stage == "sites":
        i = 0
        for terrain in TERRAINS:
            k = len(_castle_tokens(state, terrain))
            chosen = apply_shuffle(p.by_terrain[terrain], outcome[i:i + k])[:k]
            i += k
            state.edit("sites").extend(chosen)
            for t in chosen:
                state.edit("board", t)["castle"] = True
        stretch = p.ramp_steps // p.ramp_stretches
        steps = [s * stretch + int(faces[0]) for s, faces in enumerate(outcome[i:])]
        state.replace("ramp", {str(step): None for step in steps})
        events.append({"type": "castle_sites", "territories": sorted(state.sites), "ramp_steps": steps})
        state.stage = "secret"
        return
    # secret: consume the shuffles in the order request() listed them
    cursor = 0

    def take(n: int) -> Sequence[Sequence[Face]]:
        nonlocal cursor
        part = outcome[cursor:cursor + max(n - 1, 0)]
        cursor += max(n - 1, 0)
        return part

    chars = apply_shuffle(_characters(state), take(len(_characters(state))))
    door = state.tower["door"]
    inside, outside = chars[:p.chambers - 1], chars[p.chambers - 1:]
    chambers = state.edit("tower", "chambers")
    for offset, c in enumerate(inside, start=1):
        chambers[(door + offset) % p.chambers] = c
    for seat, c in enumerate(outside):
        state.players[seat]["character"] = c
    by_terrain_sites = {terrain: [t for t in state.sites if p.territories[t].terrain == terrain]
                        for terrain in TERRAINS}
    for terrain in TERRAINS:
        tokens = _castle_tokens(state, terrain)
        for t, token in zip(by_terrain_sites[terrain], apply_shuffle(tokens, take(len(tokens)))):
            state.edit("board", t)["token"] = {"id": token, "up": False}
    spots = _spell_territories(state)
    spell_tokens = p.spell_tokens() + [None] * (len(spots) - len(p.spell_tokens()))
    for t, spell in zip(spots, apply_shuffle(spell_tokens, take(len(spots)))):
        if spell is not None:
            state.edit("board", t)["token"] = {"id": spell, "up": False}
    ramp = state.edit("ramp")
    steps = sorted(ramp, key=int)
    for step, token in zip(steps, apply_shuffle(p.ramp_tokens(), take(len(steps)))):
        ramp[step] = token
    events.append({"type": "tokens_placed", "face_down": sum(1 for sq in state.board.values() if sq["token"]),
                   "ramp_tokens": len(steps), "tower": p.chambers - 1})
    for seat, player in enumerate(state.players):
        events.append({"type": "character_dealt", "seat": seat, "wizard": player["wizard"],
                       "character": player["character"]})
    state.stage = "play"
