"""Assembly and Setup, and the Variations for 2 and 3 Players: the players' choices and
the chance steps, in this order.

1. `first` (chance, public): 'Pick a player to go first' - one draw among the seats
   (a die with a face per seat). Play passes to the left (seat + 1). He is picked before
   the other choices because they go round from him; nothing else in set-up depends on it.
2. The set-up choices, made by the seats (`choose`, the default) in reverse turn order,
   starting with the last player (the first player's right-hand neighbour) and ending with
   the first player, who moves first and so chooses last:
   * 2-3 players: 'Eliminate any 2 [1] Characters completely' with their Home Castle
     tokens, one Character per choice, the seats taking turns in that order;
   * then 'Eliminate any 2 Wizards' ('one Wizard Card' with 3 players), going on round
     from the next seat; the eliminated Wizards' symbol tokens stay on the board;
   * then 'Each player selects one of the remaining Wizards' (with 4 players: 'Whichever
     Wizard Card you select'), each seat once, in the same order from its start; the last
     seat gets the one Wizard left without being asked.
   The match option `{"setup": "chance"}` (quick games) lets chance decide all of them
   instead, in one public step `removals`: the eliminations and a shuffle dealing the
   Wizards left to the seats.
3. `sites` (public): the castle tokens of each terrain go on 'any 6 of the matching
   color territories' (fewer when a Home Castle token was removed: 23 or 22 Castles);
   and one Ramp token on a random step of each of the Ramp's 6 stretches ('It's more
   fun if you space them out').
4. `secret`: shuffles nobody may see: the Characters (the first 4 into the Tower's ring,
   'the empty chamber at the door', the rest dealt to the seats face up), each terrain's
   castle tokens onto its sites, the 15 spell tokens onto the remaining territories (a
   territory left over with 3 or 2 players stays empty) and the 6 Ramp tokens onto their steps.

Reading: the Characters are dealt, not chosen. With 4 players the rulebook says 'Shuffle
the "outside" Character Cards, and deal one face down to each player'; the Variations
change only how many Characters there are ('Each player takes one of the 2 remaining
Characters'), and keep 'selects' for the Wizards alone.
"""
from __future__ import annotations

from typing import Sequence

from shared.engine import (
    ChanceRequest,
    DicePool,
    Event,
    InvalidConfig,
    MatchConfig,
    RuleViolation,
    apply_shuffle,
    shuffle_request,
)
from shared.engine.chance import Face
from shared.engine.contract import Action
from shared.tower.pack import ROCKY, TERRAINS, pack
from shared.tower.state import SetupMode, TowerState

SETUP = "Assembly and Setup"
VARIATION = {2: "Variation - For 2 Players", 3: "Variation - For 3 Players", 4: "The 4 Wizards and Their Pennants"}
MODES: tuple[SetupMode, ...] = ("choose", "chance")


def draws(purpose: str, n: int, k: int) -> list[DicePool]:
    """Pools to draw k of n items without replacement (the first k steps of a shuffle)."""
    return [DicePool(f"{purpose} {i + 1}/{k}", 1, tuple(range(1, n - i + 1))) for i in range(k)]


def setup(config: MatchConfig) -> TowerState:
    p = pack()
    if not isinstance(config.seats, int) or not 2 <= config.seats <= 4:
        raise InvalidConfig("Tower of the Wizard King is played by 2, 3 or 4 players")
    if config.variant != "standard":
        raise InvalidConfig(f"unknown variant {config.variant!r}; only 'standard'")
    options = dict(config.options or {})
    mode = options.pop("setup", "choose")
    if options:
        raise InvalidConfig(f"unknown options {sorted(options)}; known: 'setup'")
    if mode not in MODES:
        raise InvalidConfig(f"options.setup is 'choose' (the players make the set-up choices) or 'chance'"
                            f" (chance makes them), not {mode!r}")
    n = config.seats
    return TowerState(
        seats=n,
        stage="first",
        setup={"mode": mode, "order": [], "made": 0},
        removed={"characters": [], "wizards": []},
        players=[{"wizard": None, "character": None, "at": ROCKY, "supply": p.pennants} for s in range(n)],
        tower={"chambers": [None] * p.chambers, "door": 0},
        king=0,
        ramp={},
        board={t: {"castle": False, "token": None, "pennants": None, "protected": False} for t in p.territory_ids},
        sites=[],
        turn={"seat": 0, "regular": 0, "extra": [], "played": 0, "quiet": 0},
        tasks=[],
        ended=False,
        resigned=[],
    )


def eliminations(state: TowerState) -> int:
    """Characters (and Wizards) the Variations eliminate: 2 with 2 players, 1 with 3, none with 4."""
    return 4 - state.seats


def chooser(state: TowerState) -> int:
    """The seat making the next set-up choice (stage `choose`)."""
    order, k = state.setup["order"], eliminations(state)
    made = state.setup["made"]
    if made < 2 * k:
        return order[made % len(order)]
    return next(s for s in order if state.players[s]["wizard"] is None)


def choices(state: TowerState) -> list[Action]:
    """The set-up choices open to `chooser(state)`."""
    p, k, made = pack(), eliminations(state), state.setup["made"]
    if made < k:
        return [{"kind": "eliminate_character", "character": c} for c in p.character_names
                if c not in state.removed["characters"]]
    taken = set(state.removed["wizards"]) | {pl["wizard"] for pl in state.players}
    kind = "eliminate_wizard" if made < 2 * k else "select_wizard"
    return [{"kind": kind, "wizard": w} for w in p.wizard_ids if w not in taken]


def refuse(state: TowerState, action: Action) -> RuleViolation:
    wanted = choices(state)[0]["kind"].replace("_", " ")
    return RuleViolation(VARIATION[state.seats] if wanted != "select wizard" or state.seats < 4 else SETUP,
                         f"seat {chooser(state)} is to {wanted}: one of those still in the game")


def choose(state: TowerState, action: Action, events: list[Event]) -> None:
    """Apply a set-up choice (one of `choices(state)`); set-up goes on when the last is made."""
    seat, kind = chooser(state), action["kind"]
    if kind == "eliminate_character":
        removed = state.edit("removed")
        removed["characters"] = sorted(removed["characters"] + [action["character"]])
        state.edit("setup")["made"] += 1
        events.append({"type": "character_eliminated", "seat": seat, "character": action["character"]})
    elif kind == "eliminate_wizard":
        removed = state.edit("removed")
        removed["wizards"] = sorted(removed["wizards"] + [action["wizard"]])
        state.edit("setup")["made"] += 1
        events.append({"type": "wizard_eliminated", "seat": seat, "wizard": action["wizard"]})
    else:
        state.players[seat]["wizard"] = action["wizard"]
        events.append({"type": "wizard_selected", "seat": seat, "wizard": action["wizard"]})
        left = [s for s in state.setup["order"] if state.players[s]["wizard"] is None]
        if len(left) == 1:  # the last seat takes the one Wizard left
            last = choices(state)[0]["wizard"]
            state.players[left[0]]["wizard"] = last
            events.append({"type": "wizard_selected", "seat": left[0], "wizard": last, "last": True})
        if not left[1:]:
            state.stage = "sites"


def request(state: TowerState) -> ChanceRequest:
    p = pack()
    stage = state.stage
    if stage == "first":
        return ChanceRequest((DicePool("Pick a player to go first: seat", 1, tuple(range(state.seats))),))
    if stage == "removals":
        k = eliminations(state)
        return ChanceRequest(tuple(draws("eliminate a Character", len(p.character_names), k)
                                   + draws("eliminate a Wizard", len(p.wizard_ids), k)
                                   + draws("Wizard Cards to the seats", len(p.wizard_ids) - k, state.seats)))
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
    if stage == "first":
        first = int(outcome[0][0])
        state.turn["seat"] = state.turn["regular"] = first
        n = state.seats
        setup = state.edit("setup")
        setup["order"] = [(first - 1 - i) % n for i in range(n)]  # from the last player back to the first
        events.append({"type": "first_player", "seat": first, "choosing": list(setup["order"])})
        state.stage = "removals" if setup["mode"] == "chance" else "choose"
        return
    if stage == "removals":
        k = eliminations(state)
        gone = apply_shuffle(p.character_names, outcome[:k])[:k]
        absent = apply_shuffle(p.wizard_ids, outcome[k:2 * k])[:k]
        state.replace("removed", {"characters": sorted(gone), "wizards": sorted(absent)})
        left = apply_shuffle([w for w in p.wizard_ids if w not in absent], outcome[2 * k:])
        for player, wizard in zip(state.players, left):
            player["wizard"] = wizard
        events.append({"type": "eliminated", "characters": sorted(gone), "wizards": sorted(absent),
                       "seats": [pl["wizard"] for pl in state.players]})
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
