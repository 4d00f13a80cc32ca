"""Views: face-down Tokens, the Tower's contents and ring order, and Ramp tokens are hidden from every seat."""
from __future__ import annotations

import json
import random

from shared.engine import MatchConfig
from shared.engine.playout import random_playout
from shared.tower.pack import pack
from shared.tower.state import TowerState
from tests.tower.scenario import E, blank, castle, started

P = pack()


def shuffle_hidden(state: TowerState, rng: random.Random) -> TowerState:
    """The same game to the eye of every player, with every hidden thing moved about: face-down tokens
    swapped among tokens with the same back, the Tower's ring reordered and turned, Ramp tokens swapped
    (the one a player holds included)."""
    s = E.decode(E.encode(state))
    if s.stage != "play":
        return s
    groups: dict = {}
    for t, sq in s.edit("board").items():
        if sq["token"] is not None and not sq["token"]["up"]:
            back = P.territories[t].terrain if sq["castle"] else "spell"
            groups.setdefault(back, []).append(sq["token"])
    for tokens in groups.values():
        ids = [tok["id"] for tok in tokens]
        rng.shuffle(ids)
        for tok, i in zip(tokens, ids):
            tok["id"] = i
    inside = [c for c in s.tower["chambers"] if c is not None]
    rng.shuffle(inside)
    door = rng.randrange(len(s.tower["chambers"]))
    chambers = [None] * len(s.tower["chambers"])
    for k, c in enumerate(inside, start=1):
        chambers[(door + k) % len(chambers)] = c
    s.replace("tower", {"chambers": chambers, "door": door})
    battles_with_ramp = [t for t in s.tasks if t["task"] == "battle" and t["ramp"]]
    ramp = s.edit("ramp")
    slots = [(ramp, k) for k in ramp] + [(t, "ramp") for t in battles_with_ramp]
    tokens = [holder[k] for holder, k in slots]
    rng.shuffle(tokens)
    for (holder, k), tok in zip(slots, tokens):
        holder[k] = tok
    return s


def test_face_down_tokens_are_hidden_and_face_up_ones_shown():
    """Set up the Game 1: tokens are placed castle side or blank side up; once turned over all can see them."""
    state = blank(4, {0: "Warrior", 1: "Dwarf", 2: "Elf", 3: "Orc"})
    castle(state, "goldmeadow", "home:Ogre")
    castle(state, "frostpeak", "home:Elf", up=True)
    for seat in (0, 1, None):
        v = E.view(state, seat)
        assert v["board"]["goldmeadow"]["token"] == {"up": False}
        assert v["board"]["frostpeak"]["token"] == {"id": "home:Elf", "up": True}
        assert "Ogre" not in json.dumps(v["board"])


def test_the_towers_contents_and_ring_are_hidden():
    """The Wizard's Tower: nobody sees who is inside nor in which chamber."""
    state = started(4)
    for seat in (0, 3, None):
        v = E.view(state, seat)
        assert v["tower"] == {"inside": 4}
        for c in state.tower["chambers"]:
            if c:
                assert c not in json.dumps(v["tower"])


def test_ramp_tokens_are_hidden_but_their_steps_are_seen():
    """Set up the Game 1: Ramp tokens go W side up on the steps."""
    state = started(4)
    v = E.view(state, 0)
    assert set(v["ramp"]) == set(state.ramp) and set(v["ramp"].values()) == {"W"}


def test_every_seat_and_a_spectator_see_the_same_board_positions_pennants_and_characters():
    """Everything hidden in this game is hidden from all players alike."""
    state = started(3)
    views = [E.view(state, s) for s in (0, 1, 2, None)]
    for v in views:
        v.pop("you")
    assert all(v == views[0] for v in views)
    assert [p["character"] for p in views[0]["players"]] == [p["character"] for p in state.players]


def test_views_do_not_change_when_hidden_things_do():
    """No seat's view carries hidden information: shuffling the hidden things leaves every view as it was."""
    rng = random.Random(8)

    def check(state):
        if state.stage == "over":
            return
        other = shuffle_hidden(state, rng)
        for seat in [None] + list(range(state.seats)):
            assert E.view(state, seat) == E.view(other, seat)

    for seats in (2, 3, 4):
        random_playout(E, MatchConfig(seats=seats), rng, on_state=check)


def test_the_end_shows_everything():
    """Winning the Game: when the King is on the Tower, tokens and the Tower may be looked at."""
    state, _ = random_playout(E, MatchConfig(seats=4), random.Random(1))
    assert E.view(state, 0)["tower"] == state.tower


def test_events_never_name_a_hidden_token_or_the_towers_ring():
    """Events are public: a token is named only once it is face up (or leaves the board face up, or is a Ramp token
    turned over after its battle); the Tower's chambers are never named; the King's climb says only whether a Ramp
    token was there. (The secret set-up step names nothing but counts and the Characters dealt face up.)"""
    rng = random.Random(11)
    public_ramp = {"ramp_token_revealed", "ramp_token_discarded"}

    for seats in (2, 3, 4):
        state = E.setup(MatchConfig(seats=seats))
        for _ in range(3000):
            who = E.actor(state)
            if who == -2:
                break
            if who == -1:
                state, events = E.apply_chance(state, [[rng.choice(p.faces) for _ in range(p.count)]
                                                       for p in E.chance_request(state).pools])
            else:
                state, events = E.apply(state, who, rng.choice(E.legal_actions(state, who)))
            for e in events:
                assert "visible_to" not in e
                text = json.dumps(e)
                assert "chambers" not in text and "door" not in text
                if '"ramp:' in text:
                    assert e["type"] in public_ramp, e
                token = e.get("token")
                if token is not None and not token.startswith("ramp:"):
                    square = state.board.get(e["territory"])
                    assert square["token"] is None or square["token"]["up"] or state.stage == "over", e
