"""Hidden information (14.3, 3.11, Appendix A): what each seat may see."""
from __future__ import annotations

import json
import random

from shared.wizards.pack import pack
from tests.wizards.scenario import ENGINE, build


def secrets(s):
    p = s.players[0]
    p["gems"] = {"Ishkatar": "Ruby"}
    p["secret_record"] = {"A": "Terek"}
    p["false_wizard"] = "Zegoral"


def test_gem_cards_stay_face_down_for_everyone():
    """3.11 / 7.3261: the Gem Cards lie face down in the High Wizards' boxes; nobody's view shows them."""
    st = build(seats=3)
    for seat in (0, 1, 2, None):
        v = ENGINE.view(st, seat)
        assert v["gem_boxes"] == {n: "face down" for n in pack().high_wizards}
        text = json.dumps(v)
        assert not any(f'"{g["id"]}"' in text for g in pack().gem_cards)


def test_gem_and_secret_wizard_records_are_confidential():
    """14.3: the Gem Record and Secret Wizard Record are kept hidden from other players; nothing else on a
    Record Sheet is confidential."""
    st = build(seats=2, prepare=secrets)
    own, other, spectator = ENGINE.view(st, 0), ENGINE.view(st, 1), ENGINE.view(st, None)
    assert own["players"][0]["gems"] == {"Ishkatar": "Ruby"} and own["players"][0]["false_wizard"] == "Zegoral"
    for v in (other, spectator):
        me = v["players"][0]
        assert me["gems"] == me["secret_record"] == me["false_wizard"] == "hidden"
        assert "Ruby" not in json.dumps(v) and '"Terek"' not in json.dumps(v["players"])
        assert me["points"] == st.players[0]["points"] and me["at"] == st.players[0]["at"]  # public


def test_deck_order_is_hidden():
    """3.1: decks are shuffled; a view shows how many cards, never their order."""
    a = build(seats=2)
    b = build(seats=2)
    rng = random.Random(3)
    for deck in ("task", "event", "wizard"):
        rng.shuffle(b.decks[deck])
    b.gem_boxes = dict(zip(b.gem_boxes, rng.sample(list(b.gem_boxes.values()), 7)))
    for seat in (0, 1, None):
        assert ENGINE.view(a, seat) == ENGINE.view(b, seat)
    assert ENGINE.view(a, 0)["decks"] == {"task": 98, "event": 49, "wizard": 14}


def test_views_do_not_share_state():
    """A view is a copy: changing it cannot change the match."""
    st = build(seats=2)
    before = ENGINE.encode(st)
    v = ENGINE.view(st, 0)
    v["players"][0]["at"] = [0, 0]
    v["tiles"]["placed"].clear()
    assert ENGINE.encode(st) == before
