"""Random Territories and spaces: section 4, every listing of the table, and 12.45."""
from __future__ import annotations

import pytest

from shared.wizards import randomspace
from shared.wizards.cards import task_marker_wheres
from shared.wizards.pack import pack
from shared.wizards.world import world_for
from tests.wizards.scenario import ENGINE, build, chance


def tile_for(listing, white, red):
    """The Territory a listing lands in for a white and a red die (4.1)."""
    faces = ([[red]] if len(randomspace.listing_types(listing)) == 1 else [[white], [red]]) + [[1], [1]]
    got = randomspace.read({"random": listing}, faces, [])
    return got[0]


@pytest.mark.parametrize("listing,prefix", [("COMMON", "C"), ("ELVEN", "E"), ("MAGIC", "M")])
def test_single_type_listings_roll_only_the_red_die(listing, prefix):
    """4.1 COMMON / ELVEN / MAGIC: roll ONLY the RED die; it names the Territory's number."""
    pools = randomspace.pools_for({"random": listing})
    assert [p.purpose.split(":")[0] for p in pools] == ["red die", "white die", "red die"]
    for red in range(1, 7):
        assert tile_for(listing, None, red) == f"{prefix}{red}"


@pytest.mark.parametrize("listing,low,high", [("COMMON OR ELVEN", "C", "E"), ("COMMON OR MAGIC", "C", "M"),
                                              ("ELVEN OR MAGIC", "E", "M")])
def test_two_type_listings_split_the_white_die(listing, low, high):
    """4.1: white 1-3 the first type, 4-6 the second; red the Territory."""
    assert len(randomspace.pools_for({"random": listing})) == 4
    for white in range(1, 7):
        for red in range(1, 7):
            assert tile_for(listing, white, red) == f"{low if white <= 3 else high}{red}"


def test_random_listing_splits_the_white_die_in_three():
    """4.1 RANDOM: white 1-2 Common, 3-4 Elven, 5-6 Magic; red the Territory."""
    for white, prefix in zip(range(1, 7), "CCEEMM"):
        assert tile_for("RANDOM", white, 4) == f"{prefix}4"


def test_exact_space_from_white_letter_and_red_number():
    """4.21-4.212: white 1-2 A, 3-4 B, 5-6 C; red the number 1-6; the Center is never rolled."""
    for white, letter in zip(range(1, 7), "AABBCC"):
        for red in range(1, 7):
            assert randomspace.read({"territory": "C1"}, [[white], [red]], []) == ("C1", f"{letter}{red}")


def test_specific_territory_and_exact_space_roll_less():
    """4.1 SPECIFIC: no Territory dice; 4.22: an exact space or ANY takes no roll at all."""
    assert len(randomspace.pools_for({"territory": "E4"})) == 2
    assert randomspace.pools_for({"territory": "E4", "space": "A5"}) == []
    assert randomspace.pools_for({"any": "mountains"}) == []
    assert randomspace.fixed_place({"territory": "E4", "space": "A5"}) == ("E4", "A5")
    assert randomspace.fixed_place({"place": "star_crest"}) == ("E4", "Center")
    assert randomspace.fixed_place({"place": "lair_center"}) == ("M6", "Center")


def test_the_rulebook_example_klor():
    """4.22 EXAMPLE: Common or Magic, white 5 red 1 = Sacred Circle; 3 and 4 = B4. Elven, red 4 = Green Grove;
    1 and 5 = A5."""
    card = next(c for c in pack().task_cards if "Klor" in c["text"])
    (_, first), (_, second) = task_marker_wheres(card)
    assert randomspace.read(first, [[5], [1], [3], [4]], []) == ("M1", "B4")
    assert pack().tiles["M1"]["name"] == "Sacred Circle"
    assert randomspace.read(second, [[4], [1], [5]], []) == ("E4", "A5")
    assert pack().tiles["E4"]["name"] == "Green Grove"


def test_lost_territories_are_rolled_over():
    """12.45: a random space must be in a Territory not taken by Evil: roll over."""
    assert randomspace.read({"random": "COMMON"}, [[3], [1], [1]], ["C3"]) is None
    assert randomspace.read({"random": "COMMON"}, [[4], [1], [1]], ["C3"]) == ("C4", "A1")
    # A whole type lost: re-rolling could never end, so the roll is made as RANDOM (authored).
    lost = [f"C{i}" for i in range(1, 7)]
    assert randomspace.effective({"random": "COMMON"}, lost) == {"random": "RANDOM"}
    assert randomspace.effective({"random": "COMMON OR ELVEN"}, lost) == {"random": "COMMON OR ELVEN"}
    # 12.41: sent to a specific Territory that is lost, a player goes to a random Dragon's Lair space.
    assert randomspace.effective({"territory": "C2"}, ["C2"]) == {"territory": "M6"}


def test_transport_rolls_over_a_lost_territory():
    """12.45 in play: Transporting to a RANDOM space re-rolls when the Territory is lost."""
    def sage(st):
        st.players[0]["order"], st.players[0]["rank"] = "wizards", 3  # Sage: Transporting to a Random Space
        st.taken = ["C1"]
    s = build(prepare=sage)
    s, _ = ENGINE.apply(s, 0, {"kind": "cast", "spell": "transporting", "to": "RANDOM"})
    s, ev = chance(s, 2)  # the cast succeeds
    s, ev = chance(s, 1, 1, 1, 1)  # Common I, taken: roll over
    assert any(e["type"] == "reroll" for e in ev) and s.chance["then"]["do"] == "transported"
    s, ev = chance(s, 1, 2, 1, 1)
    assert world_for(s).tile_of(tuple(s.players[0]["at"])) == "C2"


def test_any_lets_the_player_choose_a_space_of_the_type_named():
    """4.1 ANY: the player may place the marker in any space he desires, as long as that space is of the type
    specified (EXAMPLE: ANY Mountain space); 4.22: no roll is taken. Lost Territories offer none (12.41)."""
    where = {"any": "mountains"}
    assert randomspace.pools_for(where) == []
    spaces = randomspace.any_spaces(where, [])
    every = [(t, lab) for t in pack().tile_ids for lab, sp in pack().tiles[t]["spaces"].items()
             if sp["kind"] == "mountains"]
    assert sorted(spaces) == sorted(every) and len(spaces) > 18
    assert all(pack().tiles[t]["spaces"][lab]["kind"] == "mountains" for t, lab in spaces)
    without = randomspace.any_spaces(where, ["C4", "M6"])
    assert not any(t in ("C4", "M6") for t, _ in without)
    assert len(without) == len(spaces) - sum(1 for t, _ in spaces if t in ("C4", "M6"))
    task_kinds = {step["where"]["any"] for c in pack().task_cards for step in c["steps"]
                  if "any" in step.get("where", {})}
    assert task_kinds and all(randomspace.any_spaces({"any": k}, []) for k in task_kinds)
