"""What must always hold in an Incantris state (check_invariants)."""
from __future__ import annotations

from collections import Counter

from shared.hexgrid import Hex
from shared.incantris import match
from shared.incantris.arena import OCEAN, as_hex
from shared.incantris.pack import load
from shared.incantris.scenarios import MAX_ROUNDS, QUIET_ROUNDS
from shared.incantris.state import IncantrisState


def check(state: IncantrisState) -> None:
    pack = load()
    a = match.arena(state)
    walls = match.obstacle_hexes(state)
    tokens = match.token_hexes(state)
    crystals = match.crystal_hexes(state)
    fog = match.fog_hexes(state)
    # the stalemate (scenarios.py): no match is played past its round limit or its quiet rounds
    assert 1 <= state.round <= MAX_ROUNDS, f"round {state.round} past the limit {MAX_ROUNDS}"
    assert 0 <= state.quiet <= QUIET_ROUNDS, f"{state.quiet} quiet rounds"
    spots: Counter[Hex] = Counter()
    moving = None
    t = state.turn
    if t is not None and t.get("wizard") is not None and not t.get("ending"):
        moving = t["wizard"]
    for wid, w in state.wizards.items():
        assert wid in pack.wizards, f"unknown wizard {wid}"
        assert 0 <= w["life"] <= w["max"] == pack.types[w["type"]].life, f"{wid}: life {w['life']}/{w['max']}"
        assert w["alive"] == (w["life"] > 0), f"{wid}: alive flag disagrees with life"
        if not w["alive"]:
            assert w["hex"] is None, f"dead {wid} still in the arena"
            continue
        if w["hex"] is None:
            # a match a resignation ended while it was being set up leaves wizards unplaced
            assert state.phase in ("shop", "place", "post") or state.sides[w["side"]]["auto"] or \
                (state.phase == "over" and state.resigned), \
                f"{wid} is alive but not in the arena"
            continue
        h = as_hex(w["hex"])
        spots[h] += 1
        carrier_edge = state.scenario == "capture-the-crystal" and w.get("carrying") and h in a.partial
        assert h in a.whole or carrier_edge, f"{wid} stands on a partial or missing hex {h}"
        assert h not in walls and h not in tokens and h not in crystals, f"{wid} stands on an impassable hex {h}"
        if a.terrain.get(h) == OCEAN:
            assert w["type"] == "druid", f"{wid} stands in the ocean"
        if wid != moving:
            assert h not in fog, f"{wid} stays in a fog wall"
    for h, n in spots.items():
        if n > 1:
            # only the active wizard may be passing through a team-mate's hex; a match that ended
            # mid-move (the last other team resigned) leaves it there, with no turn under way
            here = [w for w in match.on_board(state) if as_hex(w["hex"]) == h]
            ids = [w["id"] for w in here]
            cut_short = state.phase == "over" and state.resigned and here[0]["side"] == here[1]["side"]
            assert n == 2 and (moving in ids or cut_short), f"two wizards end on hex {h}: {ids}"
    for key, e in state.effects.items():
        assert key == f"{e['caster']}:{e['spell']}", f"effect id {key}"
        assert pack.spells[e["spell"]].persistent, f"{key} is not a persistent spell"
        if "wizard" in e:
            assert state.wizards[e["wizard"]]["alive"], f"{key} lies on a dead wizard"
    for spell in ("bane", "entanglement"):
        on = Counter(e["wizard"] for e in state.effects.values() if e["spell"] == spell)
        assert all(n == 1 for n in on.values()), f"a wizard carries two {spell} spells"
    for h in tokens:
        assert h in a.whole and h not in walls, f"token on a bad hex {h}"
    for side in state.sides:
        assert side["stars"] >= 0 and side["kills"] >= 0 and side["sapped"] >= 0
    if state.scenario == "capture-the-crystal":
        for c in state.crystals:
            assert (c["hex"] is None) == (c["carrier"] is not None), "a crystal is both carried and lying"
            if c["carrier"]:
                assert state.wizards[c["carrier"]]["carrying"] == c["colour"]
    if state.phase == "play" and t is not None:
        assert 0 <= t["side"] < len(state.sides)
        if t.get("wizard") is not None:
            assert t["mp"] >= 0 and t["spent"] >= 0, "negative movement points"
    if state.phase == "over":
        assert state.result is not None and state.queue == []
