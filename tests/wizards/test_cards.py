"""The card language: every Task, Event and Wizard card reads as steps the engine understands."""
from __future__ import annotations

from shared.wizards import randomspace
from shared.wizards.cards import held_effects, movement_modifiers, task_marker_wheres
from shared.wizards.geometry import SPACE_LABELS
from shared.wizards.pack import pack


def resolves(where) -> bool:
    """A where names a real space once its dice (all ones here, then all sixes) are rolled."""
    if "any" in where:
        return randomspace.pools_for(where) == []
    fixed = randomspace.fixed_place(where)
    if fixed:
        return fixed[0] in pack().tiles and fixed[1] in pack().tiles[fixed[0]]["spaces"]
    for face in (1, 6):
        pools = randomspace.pools_for(where)
        tile, label = randomspace.read(where, [[face]] * len(pools), [])
        if tile not in pack().tiles or label not in SPACE_LABELS:
            return False
    return True


def test_every_task_marker_lands_on_a_space():
    """9.1: each portion of a Task Card that can be marked is marked in the space its requirement names (section 4)."""
    marked = 0
    for card in pack().task_cards:
        for _, where in task_marker_wheres(card):
            assert resolves(where), (card["number"], where)
            marked += 1
        kinds = {s["do"] for s in card["steps"]}
        assert kinds <= {"go", "return", "take", "meet", "visit_every"}
        assert sum(card["points"].values()) > 0  # 9.01: points at the bottom of the card
    assert marked > 98


def test_every_location_type_a_task_visits_exists():
    """12.43: Tasks that call for a visit to EVERY location of a type name types found on the tiles."""
    kinds = {s["kind"] for t in pack().tiles.values() for s in t["spaces"].values()}
    visits = [step for card in pack().task_cards for step in card["steps"] if step["do"] == "visit_every"]
    assert visits, "no Task Card calls for a visit to every location of a type"
    for step in visits:
        assert step["kind"] in kinds


def test_stealable_objects_are_marked_with_an_asterisk():
    """9.8: an ASTERISK on a Task Card marks a Magical Object which may be stolen."""
    starred = [(card, step) for card in pack().task_cards for step in card["steps"]
               if step["do"] == "take" and step["stealable"]]
    assert starred, "no Task Card holds a Magical Object that may be stolen"
    for card, step in starred:
        assert f"{step['object']}*" in card["text"]


def test_wizard_card_traps_send_players_somewhere_real():
    """8.73: a Trap card transports the player to the indicated location."""
    traps = [card for card in pack().wizard_cards if card["type"] == "trap"]
    assert traps, "the Wizard Deck holds no Trap"
    for card in traps:
        assert resolves(card["destination"]), card


def test_movement_event_cards_are_read_for_movement():
    """8.51 MOVEMENT: the engine reads what running Movement cards add and which terrain they smooth; a card
    whose days have run out does nothing."""
    p = {"events": [{"card": 30, "days": 2}, {"card": 32, "days": 1}, {"card": 35, "days": 0}]}
    add, plains = movement_modifiers(p)
    assert add == 2 and plains == {"mountains"}  # Seven-League Boots, Mountain Goat's Step; Tailwind expired
    assert len(held_effects(p, "movement")) == 2
    assert held_effects({"events": [{"card": 25, "days": 3}]}, "no_random_encounters")
