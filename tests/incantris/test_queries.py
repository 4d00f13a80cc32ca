"""Board queries: line of sight, range, reachable hexes and spell targets (Casting Spells, Movement & Terrain)."""
from __future__ import annotations

import random

import pytest

from shared.engine import MalformedAction
from shared.engine.state import tree_copy
from shared.hexgrid import distance, iter_within, neighbours
from shared.incantris import casting, match, sight
from shared.incantris.arena import arena_of, as_hex, slot_vector
from shared.incantris.pack import load

from .support import E, act, arrange, begin, game, legal, open_field

RED_SHAMAN, RED_DRUID, RED_SORC = "red-shaman", "red-druid", "red-sorceress"
BLUE_AK, BLUE_SW, BLUE_SORC = "blue-arcane-knight", "blue-shadow-weaver", "blue-sorcerer"
RED, BLUE = 0, 1  # seats: side 0 plays red, side 1 blue


def q(state, seat, **query):
    return E.query(state, seat, query)


def effect(s, spell, caster, side, **where):
    key = f"{caster}:{spell}"
    s.edit("effects")[key] = dict({"id": key, "spell": spell, "caster": caster, "side": side, "since": 0}, **where)


def random_board(rng: random.Random) -> dict:
    """An open field with a few trees, walls and wizards dropped at random, the Druid to act."""
    spots = rng.sample([h for h in iter_within((0, 0), 6)], 12)
    at = {RED_DRUID: spots[0], BLUE_SW: spots[1], BLUE_SORC: spots[2], RED_SHAMAN: spots[3]}
    s = arrange(game(), at)
    s.replace("obstacles", [{"kind": rng.choice(["tree", "high-wall", "low-wall"]), "hexes": [list(h)]}
                            for h in spots[4:9]])
    return begin(s, RED_DRUID)


# --- line of sight ---------------------------------------------------------------------------------
def test_line_of_sight_is_the_engines_sight_for_the_seats_team():
    """Confirm line of sight: the answer is what casting uses - a wizard is a target of Gloom Strike
    (range 12) exactly when it is in range and the caster's team sees it."""
    rng = random.Random(4)
    for _ in range(12):
        s = random_board(rng)
        here = as_hex(s.wizards[RED_DRUID]["hex"])
        t = q(s, RED, kind="targets", wizard=RED_DRUID, spell="tempest")["targets"]
        for w in match.on_board(s):
            h = as_hex(w["hex"])
            los = q(s, RED, kind="line_of_sight", **{"from": list(here), "to": list(h)})
            in_range = q(s, RED, kind="range", **{"from": list(here), "to": list(h)})["hexes"] <= 3
            assert (w["id"] in t) == (in_range and los["sees"]), (w["id"], los)


def test_what_is_in_the_way_decides_the_answer():
    """Confirm line of sight: the blockers named are the ones that matter - sight with only them gives the
    same answer, and when one is named with sight refused, every blocker lies in the corridor."""
    rng = random.Random(9)
    a = arena_of(open_field())
    checked = 0
    for _ in range(8):
        s = random_board(rng)
        blocked = sight.blocking(s, RED)
        for x in rng.sample(sorted(a.whole), 12):
            for y in rng.sample(sorted(a.whole), 6):
                got = q(s, RED, kind="line_of_sight", **{"from": list(x), "to": list(y)})
                named = frozenset(as_hex(b["hex"]) for b in got["in_the_way"] if b["what"] != "arena-edge")
                assert got["sees"] == sight.can_see(a, x, y, blocked)
                assert sight.can_see(a, x, y, named) == got["sees"]
                if not got["sees"]:
                    assert got["in_the_way"]
                    checked += 1
    assert checked > 20


def test_trees_high_walls_and_wizards_block_low_walls_and_streams_do_not():
    """Obstacles: "High walls ... block line of sight", "Trees ... block line of sight", low walls do not;
    "The hexes occupied by other wizards (regardless of their team) always block line of sight." """
    for kind, blocks in (("tree", True), ("high-wall", True), ("low-wall", False)):
        s = arrange(game(), {RED_DRUID: (0, 0), BLUE_SW: (3, 0)})
        s.replace("obstacles", [{"kind": kind, "hexes": [[1, 0], [2, 0]]}])
        got = q(s, RED, kind="line_of_sight", **{"from": [0, 0], "to": [3, 0]})
        assert got["sees"] == (not blocks)
        assert ({"what": kind, "hex": [1, 0]} in got["in_the_way"]) == blocks
    s = arrange(game(), {RED_DRUID: (0, 0), RED_SHAMAN: (1, 0), BLUE_SW: (2, 0)})
    got = q(s, BLUE, kind="line_of_sight", **{"from": [0, 0], "to": [2, 0]})
    assert not got["sees"] and {"what": "wizard", "wizard": RED_SHAMAN, "hex": [1, 0]} in got["in_the_way"]
    assert q(s, RED, kind="line_of_sight", **{"from": [0, 0], "to": [0, 0]})["sees"]  # its own hex


def test_fog_wall_blocks_the_opposing_team_and_spectators():
    """Fog Wall: "Wizards on opposing teams ... it blocks their line of sight." The asking seat's team
    decides; a spectator has no team, so every Fog Wall blocks for it."""
    s = arrange(game(), {RED_DRUID: (0, 0), BLUE_SW: (3, 0), RED_SHAMAN: (-3, 0)})
    effect(s, "fog-wall", BLUE_SW, BLUE, hexes=[[2, 0], [2, -1]])
    line = {"from": [0, 0], "to": [3, 0]}
    red, blue, nobody = q(s, RED, kind="line_of_sight", **line), q(s, BLUE, kind="line_of_sight", **line), \
        q(s, None, kind="line_of_sight", **line)
    assert not red["sees"] and blue["sees"] and not nobody["sees"]
    assert {"what": "fog-wall", "caster": BLUE_SW, "hex": [2, 0]} in red["in_the_way"]
    assert red["team"] == "red" and blue["team"] == "blue" and nobody["team"] is None


def test_hydras_and_totems_block_and_are_named():
    """Guardian Hydra and Spell Totem: "... block line of sight"."""
    for spell in ("guardian-hydra", "spell-totem"):
        s = arrange(game(), {RED_DRUID: (0, 0), BLUE_SW: (3, 0), BLUE_SORC: (0, -6)})
        effect(s, spell, BLUE_SORC, BLUE, hex=[2, 0])
        got = q(s, RED, kind="line_of_sight", **{"from": [0, 0], "to": [3, 0]})
        assert not got["sees"] and {"what": spell, "caster": BLUE_SORC, "hex": [2, 0]} in got["in_the_way"]


def test_the_arena_edge_blocks_sight_and_is_named():
    """Confirm line of sight: "The outside edge of the arena also blocks sight." """
    tiles = [open_field()[0], {"tile": "T2", "side": "B", "centre": list(slot_vector(0)), "rotation": 0}]
    two = arena_of(tiles)
    a, b = next((a, b) for a in sorted(two.whole) for b in sorted(two.whole)
                if a < b and distance(a, b) <= 8 and not sight.can_see(two, a, b, frozenset()))
    s = arrange(game(), {RED_DRUID: (0, 0), BLUE_SW: (0, -1)})
    s.replace("tiles", tiles)
    s.wizards[RED_DRUID]["hex"], s.wizards[BLUE_SW]["hex"] = None, None
    got = q(s, RED, kind="line_of_sight", **{"from": list(a), "to": list(b)})
    assert not got["sees"] and any(x["what"] == "arena-edge" for x in got["in_the_way"])


def test_sight_is_not_symmetric():
    """Figure 5: "although the purple Sorceress can see the blue Shadow Weaver, the blue Shadow Weaver
    cannot see the purple Sorceress" - sight runs from any part of one hex to the centre of the other."""
    s = arrange(game(), {RED_DRUID: (-6, 0), BLUE_SW: (6, 0)})
    a = arena_of(s.tiles)
    for tree in [(1, 0), (1, 1), (2, -1)]:
        s.replace("obstacles", [{"kind": "tree", "hexes": [list(tree)]}])
        pairs = [(x, y) for x in iter_within((0, 0), 3) for y in iter_within((0, 0), 3)
                 if tree not in (x, y) and sight.can_see(a, x, y, {tree}) != sight.can_see(a, y, x, {tree})]
        if pairs:
            x, y = pairs[0]
            there = q(s, RED, kind="line_of_sight", **{"from": list(x), "to": list(y)})["sees"]
            back = q(s, RED, kind="line_of_sight", **{"from": list(y), "to": list(x)})["sees"]
            assert there != back
            return
    raise AssertionError("no one-way sight found")


# --- range ------------------------------------------------------------------------------------------
def test_range_counts_hexes_up_to_and_including_it():
    """Confirm range, Figure 4: Tempest (range 3) reaches a wizard three hexes away, not four."""
    s = begin(arrange(game(), {RED_DRUID: (0, 0), BLUE_SW: (3, 0), BLUE_SORC: (0, -4)}), RED_DRUID)
    assert q(s, RED, kind="range", **{"from": [0, 0], "to": [3, 0]})["hexes"] == 3
    assert q(s, RED, kind="range", **{"from": [0, 0], "to": [0, -4]})["hexes"] == 4
    t = q(s, RED, kind="targets", wizard=RED_DRUID, spell="tempest")
    assert t["range"] == 3 and BLUE_SW in t["targets"] and BLUE_SORC not in t["targets"]
    rng = random.Random(1)
    for _ in range(50):
        x, y = (rng.randint(-9, 9), rng.randint(-9, 9)), (rng.randint(-9, 9), rng.randint(-9, 9))
        steps, h = 0, x
        while h != y:  # walk hex by hex, each step one hex nearer
            h = min(neighbours(h), key=lambda n: distance(n, y))
            steps += 1
        assert q(s, None, kind="range", **{"from": list(x), "to": list(y)})["hexes"] == steps


# --- reachable ----------------------------------------------------------------------------------------
def explore(state: dict, wid: str) -> dict:
    """Brute force through the engine: apply every step action, and note where the wizard may end
    its movement ("end" or "exit" offered) and the fewest points spent to stand there."""
    best: dict = {}
    seen: set = set()
    start = state.turn["spent"]

    def go(s):
        w = s.wizards[wid]
        key = (tuple(w["hex"]), s.turn["mp"])
        if key in seen:
            return
        seen.add(key)
        acts = E.legal_actions(s, E.actor(s))
        spent = s.turn["spent"] - start
        if {"kind": "end"} in acts or {"kind": "exit"} in acts:
            h = tuple(w["hex"])
            best[h] = min(best.get(h, spent), spent)
        for a in acts:
            if a["kind"] == "step":
                go(E.apply(s, E.actor(s), a)[0])

    go(state)
    return best


def reach(state, seat, wid) -> dict:
    return {tuple(x["hex"]): x["cost"] for x in q(state, seat, kind="reachable", wizard=wid)["hexes"]}


def test_reachable_hexes_and_costs_are_what_stepping_reaches():
    """Movement & Terrain (streams cost two, leaving them one; obstacles, opposing wizards impassable,
    team-mates passed through but never shared at the end) and Bear Presence: the answer equals a
    brute force over the step actions the engine allows."""
    s = arrange(game(), {RED_SORC: (2, -1), RED_DRUID: (1, 0), BLUE_SW: (4, -2), BLUE_SORC: (-1, 3),
                         RED_SHAMAN: (0, -6)})
    s.edit("tiles")[0] = {"tile": "T1", "side": "B", "centre": [0, 0], "rotation": 0}  # a stream across
    s.replace("obstacles", [{"kind": "tree", "hexes": [[3, -1]]}, {"kind": "low-wall", "hexes": [[1, -1], [0, -1]]}])
    for wid in (RED_SORC, RED_DRUID):  # the Druid walks on water
        t = begin(s, wid)
        here = tuple(t.wizards[wid]["hex"])
        got = reach(t, RED, wid)
        brute = explore(t, wid)
        brute.pop(here, None)
        assert got == brute and got, wid
    t = begin(s, BLUE_SW)  # next to nobody, but the red Shaman is far: then put him near
    t.wizards[RED_SHAMAN]["hex"] = [4, 0]
    brute = explore(t, BLUE_SW)
    brute.pop((4, -2), None)
    assert reach(t, BLUE, BLUE_SW) == brute


def test_every_path_walks_with_the_cost_given():
    """Movement & Terrain: each path given is a sequence of legal steps that spends exactly its cost."""
    s = arrange(game(), {RED_SORC: (2, -1), RED_DRUID: (1, 0), BLUE_SW: (4, -2)})
    s.edit("tiles")[0] = {"tile": "T1", "side": "B", "centre": [0, 0], "rotation": 0}
    t = begin(s, RED_SORC)
    for x in q(t, RED, kind="reachable", wizard=RED_SORC)["hexes"]:
        u = t
        for h in x["path"]:
            u, _ = act(u, {"kind": "step", "to": h})
        assert u.wizards[RED_SORC]["hex"] == x["hex"] and u.turn["spent"] == x["cost"]
        assert {"kind": "end"} in legal(u)


def test_a_wizard_not_yet_activated_is_answered_with_its_full_movement():
    """Movement & Terrain: "Movement points return to full at the start of the wizard's turn"; the answer
    for a wizard waiting its turn is what it gets when activated, and Entanglement leaves two points."""
    s = begin(arrange(game(), {RED_DRUID: (0, 0), BLUE_SW: (3, 0), BLUE_SORC: (-2, 2)}), RED_DRUID)
    early = q(s, BLUE, kind="reachable", wizard=BLUE_SW)
    later = q(begin(s, BLUE_SW), BLUE, kind="reachable", wizard=BLUE_SW)
    assert early == later and early["movement_points"] == load().types["shadow-weaver"].movement
    effect(s, "entanglement", RED_DRUID, RED, wizard=BLUE_SORC)
    tied = q(s, RED, kind="reachable", wizard=BLUE_SORC)
    assert tied["movement_points"] == 2 and max(x["cost"] for x in tied["hexes"]) <= 2


def test_the_active_wizard_is_answered_with_the_points_it_has_left():
    """Movement & Terrain: the points left after stepping; none after Bear Presence stops it, and none
    once the movement is closed by a spell ("Movement may not be split before and after spell casting")."""
    s = begin(arrange(game(), {RED_SORC: (0, 0), BLUE_SW: (3, 0)}), RED_SORC)
    s, _ = act(s, {"kind": "step", "to": [-1, 0]})
    left = q(s, RED, kind="reachable", wizard=RED_SORC)
    assert left["movement_points"] == s.turn["mp"] == 3 and left["from"] == [-1, 0]
    s, _ = act(s, {"kind": "cast", "spell": "meteor-storm", "target": [3, 0]})
    assert q(s, RED, kind="reachable", wizard=RED_SORC)["hexes"] == []


def test_wizards_that_cannot_move_this_turn_say_why():
    """Sequence of Play: a wizard moves once a round, on its own activation; the dead do not move."""
    s = begin(arrange(game(), {RED_DRUID: (0, 0), BLUE_SW: (3, 0), RED_SHAMAN: (0, 3)}), RED_DRUID)
    s, _ = act(s, {"kind": "end"})
    done = q(s, RED, kind="reachable", wizard=RED_DRUID)
    assert done["hexes"] == [] and "acted" in done["why"]
    dead = q(s, RED, kind="reachable", wizard=RED_SORC)  # removed by arrange
    assert dead["hexes"] == [] and "dead" in dead["why"]


def test_the_crystal_carrier_reaches_the_partial_hexes_of_its_zone():
    """Capture the Crystal: "A wizard with the crystal may step into a partial hex in their starting zone, so
    long as he or she has at least one movement point still remaining", to step off for one point."""
    s = game("capture-the-crystal", 2)
    a = arena_of(s.tiles)
    zone = a.tile_hexes[s.sides[0]["zone"]]
    edge, inner = next((p, n) for p in sorted(h for h in zone if h in a.partial) for n in neighbours(p)
                       if n in a.whole and n in zone and a.terrain[n] == "open" and a.terrain.get(p) == "open")
    s = arrange(s, {RED_DRUID: inner, BLUE_SW: (0, 0)}, field=False)
    red = next(c for c in s.crystals if c["colour"] == "red")
    s.replace("crystals", tree_copy([dict(red, hex=None, carrier=RED_DRUID)]
                                    + [c for c in s.crystals if c["colour"] != "red"]))
    s.wizards[RED_DRUID]["carrying"] = "red"
    s = begin(s, RED_DRUID)
    got = {tuple(x["hex"]): x for x in q(s, RED, kind="reachable", wizard=RED_DRUID)["hexes"]}
    assert got[edge]["partial"] and got[edge]["cost"] == 1 and got[edge]["exit_cost"] == 2
    brute = explore(s, RED_DRUID)
    brute.pop(inner, None)
    assert {h: x["cost"] for h, x in got.items()} == brute


def test_an_attacker_waiting_outside_steps_in_at_its_entry_point():
    """Solo Play, Gameplay: "That wizard steps into the arena in either of the two available hexes, expending
    one movement point"; the answer is the movement the attacking wizard's plan chooses from."""
    from shared.incantris import attackers

    s = arrange(game("solo", 1, teams=["purple"]), {"purple-shadow-weaver": (0, 0), "purple-shaman": (-3, 6)},
                field=False, others="outside")
    for i, wid in enumerate(["red-druid", "red-shaman", "red-sorceress"]):
        s.wizards[wid]["entry"] = i
    got = q(s, 0, kind="reachable", wizard="red-druid")
    entry = {tuple(h) for h in s.entries[0]["hexes"]}
    assert got["from"] is None and got["hexes"]
    assert all(tuple(x["path"][0]) in entry and x["cost"] >= 1 for x in got["hexes"])
    assert {tuple(x["hex"]) for x in got["hexes"] if x["cost"] == 1} == entry
    t = E.decode(E.encode(s))
    t.queue = []
    from shared.incantris import turns

    turns.begin_turn(t, 0, [])
    turns.activate(t, "red-druid", [])
    plan = attackers.plan(t, t.wizards["red-druid"])
    assert plan["path"][-1] in [x["hex"] for x in got["hexes"]]


# --- targets ------------------------------------------------------------------------------------------
def test_targets_are_the_casts_listed_for_the_active_wizard():
    """Casting Spells: the targets of each spell are exactly those of the cast actions listed."""
    rng = random.Random(2)
    for _ in range(6):
        s = random_board(rng)
        for spell in casting.match_spells(s.wizards[RED_DRUID]):
            got = q(s, RED, kind="targets", wizard=RED_DRUID, spell=spell)
            listed = [a["target"] for a in legal(s, "cast") if a["spell"] == spell and "from" not in a]
            assert got["targets"] == listed and got["may_cast_now"]


def test_targets_of_a_waiting_wizard_are_what_it_will_have_on_its_turn():
    """Casting Spells: a wizard not yet activated is answered from where it stands; Spectral Rush counts from
    there ("only if the caster began the turn at least three hexes away")."""
    s = begin(arrange(game(), {RED_DRUID: (0, 0), BLUE_SW: (1, 0), BLUE_AK: (4, 0), RED_SHAMAN: (0, 4)}), RED_DRUID)
    for spell in casting.match_spells(s.wizards[BLUE_AK]):
        early = q(s, BLUE, kind="targets", wizard=BLUE_AK, spell=spell)
        later = q(begin(s, BLUE_AK), BLUE, kind="targets", wizard=BLUE_AK, spell=spell)
        assert early["targets"] == later["targets"] and not early["may_cast_now"] and later["may_cast_now"]


def test_targets_from_a_spell_totem_are_listed_apart():
    """Spell Totem: "On future turns the caster may cast spells ... from the totem's location"."""
    s = arrange(game(teams=["purple", "blue"]), {"purple-sorceress": (0, 0), BLUE_SW: (7, -1)})
    effect(s, "spell-totem", "purple-sorceress", 0, hex=[5, 0])
    s = begin(s, "purple-sorceress")
    got = q(s, 0, kind="targets", wizard="purple-sorceress", spell="inferno")
    via = [a["target"] for a in legal(s, "cast") if a.get("from") == "totem" and a["spell"] == "inferno"]
    assert got["from_totem"] == {"hex": [5, 0], "targets": via} and via == [BLUE_SW]
    assert BLUE_SW not in got["targets"]


@pytest.mark.parametrize("query", [
    {"kind": "path"}, {}, {"kind": None}, ["range"], None,
    {"kind": "range", "from": [0, 0]}, {"kind": "range", "from": [0, 0], "to": [1]},
    {"kind": "range", "from": [0, 0], "to": [1, "a"]}, {"kind": "range", "from": [0, 0], "to": [True, 1]},
    {"kind": "range", "from": [0, 0], "to": [1, 0], "wizard": "x"},
    {"kind": "line_of_sight", "from": [0, 0], "to": [40, 0]},
    {"kind": "reachable"}, {"kind": "reachable", "wizard": "nobody"}, {"kind": "reachable", "wizard": 3},
    {"kind": "targets", "wizard": RED_DRUID}, {"kind": "targets", "wizard": RED_DRUID, "spell": "fireball"},
    {"kind": "targets", "wizard": RED_DRUID, "spell": "meteor-storm"},  # not on the Druid's board
])
def test_malformed_queries_are_refused(query):
    """The contract: unknown kinds and malformed fields are MalformedAction, never KeyError or TypeError."""
    s = begin(arrange(game(), {RED_DRUID: (0, 0), BLUE_SW: (3, 0)}), RED_DRUID)
    with pytest.raises(MalformedAction):
        E.query(s, RED, query)
