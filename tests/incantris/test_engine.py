"""The engine contract: set-up, who acts, malformed and illegal actions, purity, views, bytes."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.engine import (
    CHANCE,
    EngineError,
    InvalidConfig,
    MalformedAction,
    MatchConfig,
    NotYourTurn,
    RuleViolation,
    WrongChanceOutcome,
    registry,
)
from shared.incantris.engine import IncantrisEngine

from .support import BLANK, WAND, E, arrange, begin, game


def test_registered_under_its_name():
    eng = registry.engine_for("incantris")
    assert isinstance(eng, IncantrisEngine)
    assert (eng.name, eng.title, eng.min_seats, eng.max_seats) == ("incantris", "Incantris", 1, 4)
    assert set(eng.variants) >= {"battle-royale", "crystal-sap", "capture-the-crystal", "shifting-arena", "solo",
                                 "campaign"}
    # the seats matchmaking offers are the ones set-up accepts: Figure 2's layouts are for 2-4 players
    assert eng.seat_counts("solo") == (1,)
    assert eng.seat_counts("battle-royale") == eng.seat_counts("campaign") == (2, 3, 4)


@pytest.mark.parametrize("config", [
    MatchConfig(5, "battle-royale"), MatchConfig(1, "battle-royale"), MatchConfig(2, "solo"),
    MatchConfig(2, "no-such-game"), MatchConfig(2, "battle-royale", {"teams": ["red", "red"]}),
    MatchConfig(2, "battle-royale", {"layout": "battle-royale-3"}),
    MatchConfig(2, "battle-royale", {"faces": ["H1A", "T3B", "H2A", "T5B", "H1B"]}),
    MatchConfig(2, "shifting-arena", {"faces": ["T2A", "T3B", "H1A", "T5B", "H2A"]}),
    MatchConfig(2, "battle-royale", {"obstacles": [{"kind": "high-wall", "hexes": [[0, 0]]}]}),
    MatchConfig(1, "solo", {"teams": ["red"], "attackers": "red"}),
])
def test_unplayable_configs_are_refused(config):
    with pytest.raises(InvalidConfig):
        E.setup(config)


def test_players_may_agree_on_other_tiles_and_obstacles():
    """Figure 2: "Players may use any tiles they mutually agree upon. Players may also place trees
    and walls on the arena as they choose." """
    s = E.setup(MatchConfig(2, "battle-royale", {"faces": ["T1B", "T4A", "H3B", "T6A", "H4B"], "obstacles": []}))
    assert [t["tile"] + t["side"] for t in s.tiles] == ["T1B", "T4A", "H3B", "T6A", "H4B"]
    assert s.obstacles == []


@pytest.mark.parametrize("terrain", ["stream", "ocean"])
def test_players_place_obstacles_on_open_ground_only(terrain):
    """Obstacles / Movement & Terrain: "All hexes that are neither stream, ocean, nor otherwise
    impassable are open ground" - the trees and walls players place "as they choose" still take
    the place of open ground (README, Readings); the bridge is open ground and may hold one."""
    from shared.incantris.arena import arena_of
    from shared.incantris.pack import load

    lay = load().layouts["battle-royale-2"]
    a = arena_of(lay["tiles"])
    taken = {tuple(h) for o in lay["obstacles"] for h in o["hexes"]}
    spots = sorted(h for h in a.single if a.terrain[h] == terrain and h not in taken)
    assert spots, f"the layout has {terrain} hexes inside one tile"
    with pytest.raises(InvalidConfig, match="open ground"):
        game(obstacles=lay["obstacles"] + [{"kind": "tree", "hexes": [list(spots[0])]}])
    bridge = next(h for h in sorted(a.single) if load().ground_under(lay, h) == "=" and h not in taken)
    s = game(obstacles=lay["obstacles"] + [{"kind": "tree", "hexes": [list(bridge)]}])
    assert [list(bridge)] in [o["hexes"] for o in s.obstacles]


def test_default_variant_is_battle_royale():
    assert E.setup(MatchConfig(2)).scenario == "battle-royale"


@pytest.mark.parametrize("action", [
    None, 3, "step", {}, {"kind": 3}, {"kind": "fly"}, {"kind": "step"}, {"kind": "step", "to": "north"},
    {"kind": "step", "to": [1]}, {"kind": "step", "to": [1, True]}, {"kind": "cast", "spell": "tempest"},
    {"kind": "cast", "spell": 5, "target": "x"}, {"kind": "cast", "spell": "tempest", "target": [[1, 2], [3]]},
    {"kind": "end", "extra": 1}, {"kind": "blaze", "burn": "yes"}, {"kind": "keep", "roll": "1"},
    {"kind": "activate", "wizard": None},
])
def test_garbage_is_malformed(action):
    s = game()
    with pytest.raises(MalformedAction):
        E.apply(s, 0, action)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["kind", "to", "spell", "target", "wizard", "hex", "burn", "effect", "x"]),
                       st.one_of(st.none(), st.integers(-3, 3), st.text(max_size=6), st.booleans(),
                                 st.lists(st.integers(-3, 3), max_size=3),
                                 st.sampled_from(["step", "cast", "end", "activate", "place", "blaze", "sap"])),
                       max_size=4))
def test_no_action_breaks_the_engine(action):
    """apply raises only engine errors, never KeyError/TypeError, whatever it is handed."""
    s = begin(arrange(game(), {"red-druid": (0, 0), "blue-shadow-weaver": (3, 0)}), "red-druid")
    for seat in (0, 1):
        try:
            E.apply(s, seat, action)
        except EngineError:
            pass


def test_out_of_turn_and_illegal_actions():
    s = begin(arrange(game(), {"red-druid": (0, 0), "blue-shadow-weaver": (3, 0)}), "red-druid")
    with pytest.raises(NotYourTurn):
        E.apply(s, 1, {"kind": "end"})
    with pytest.raises(RuleViolation) as e:
        E.apply(s, 0, {"kind": "step", "to": [5, 5]})
    assert e.value.rule == "Movement & Terrain" and "Movement" in str(e.value)
    with pytest.raises(RuleViolation):
        E.apply(s, 0, {"kind": "sap", "hex": [1, 0]})


def test_apply_and_apply_chance_leave_their_input_alone():
    s = begin(arrange(game(), {"red-druid": (0, 0), "blue-shadow-weaver": (3, 0)}), "red-druid")
    before = E.encode(s)
    s2, _ = E.apply(s, 0, {"kind": "cast", "spell": "tempest", "target": "blue-shadow-weaver"})
    assert E.encode(s) == before
    mid = E.encode(s2)
    E.apply_chance(s2, [[WAND, WAND], [BLANK, BLANK]])
    assert E.encode(s2) == mid


def test_chance_steps_check_their_faces():
    s = begin(arrange(game(), {"red-druid": (0, 0), "blue-shadow-weaver": (3, 0)}), "red-druid")
    assert E.chance_request(s) is None
    with pytest.raises(WrongChanceOutcome):
        E.apply_chance(s, [[WAND]])
    s, _ = E.apply(s, 0, {"kind": "cast", "spell": "tempest", "target": "blue-shadow-weaver"})
    assert E.actor(s) == CHANCE and E.legal_actions(s, 0) == []
    with pytest.raises(WrongChanceOutcome):
        E.apply_chance(s, [[WAND, WAND]])
    with pytest.raises(WrongChanceOutcome):
        E.apply_chance(s, [[WAND, "six"], [BLANK, BLANK]])
    req = E.chance_request(s)
    assert req.secret is False and len(req.pools[0].faces) == 8  # everything in Incantris is public


def test_legal_actions_are_sorted_and_each_one_applies():
    s = begin(arrange(game(), {"red-sorceress": (0, 0), "blue-shadow-weaver": (3, 0), "red-druid": (0, 3)}),
              "red-sorceress")
    acts = E.legal_actions(s, 0)
    assert acts == sorted(acts, key=lambda a: repr(sorted(a.items())))
    assert len({repr(sorted(a.items())) for a in acts}) == len(acts)
    for a in acts[:: max(1, len(acts) // 40)]:
        E.apply(s, 0, a)


def test_action_domains():
    """Map, movement and set-up actions go to the board service; spells, abilities and token
    effects to the combat service."""
    for kind in ("place", "activate", "step", "exit", "pick-up", "end", "relocate"):
        assert E.action_domain({"kind": kind}) == "board"
    for kind in ("cast", "hydra", "cleanse", "cancel", "sap", "blaze", "teleport", "reach", "chain", "amulet", "coin"):
        assert E.action_domain({"kind": kind}) == "combat"


def test_describe_gives_a_label_for_every_legal_action():
    s = begin(arrange(game(), {"red-sorceress": (0, 0), "blue-shadow-weaver": (3, 0)}), "red-sorceress")
    labels = [E.describe(a) for a in E.legal_actions(s, 0)]
    assert all(isinstance(x, str) and x for x in labels)
    assert "cast meteor-storm at T17" in labels


def test_every_view_is_the_whole_state():
    """Life points and the reference boards are public; nothing in Incantris is hidden."""
    at = {"red-sorceress": (0, 0), "blue-shadow-weaver": (3, 0)}
    s = begin(arrange(game("battle-royale", 3), at), "red-sorceress")
    for seat in (None, 0, 1, 2):
        v = E.view(s, seat)
        assert v["viewer"] == seat
        del v["viewer"]
        assert v == s.to_json()


def test_encode_decode_round_trip():
    s = begin(arrange(game(), {"red-sorceress": (0, 0), "blue-shadow-weaver": (3, 0)}), "red-sorceress")
    assert E.decode(E.encode(s)) == s and E.encode(E.decode(E.encode(s))) == E.encode(s)


def test_outcome_only_at_the_end():
    assert E.outcome(game()) is None


@pytest.mark.parametrize("breakage", ["stacked", "overhealed", "ocean", "ghost", "partial"])
def test_invariants_catch_broken_states(breakage):
    s = begin(arrange(game(), {"red-sorceress": (0, 0), "blue-shadow-weaver": (3, 0), "red-druid": (0, 3)}),
              "red-druid")
    E.check_invariants(s)
    if breakage == "stacked":
        s.wizards["blue-shadow-weaver"]["hex"] = [0, 0]
    elif breakage == "overhealed":
        s.wizards["red-sorceress"]["life"] = 99
    elif breakage == "ocean":
        s.edit("tiles")[0] = {"tile": "T3", "side": "B", "centre": [0, 0], "rotation": 0}
    elif breakage == "ghost":
        s.wizards["red-sorceress"]["alive"] = False
    else:
        s.wizards["red-sorceress"]["hex"] = [12, 0]
    with pytest.raises(AssertionError):
        E.check_invariants(s)
