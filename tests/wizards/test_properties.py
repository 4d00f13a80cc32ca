"""Random legal play from states built to meet what set-up alone rarely reaches (Orders, Animals,
afflictions, Boats; partners gathering Gems; the Evil attacks past Day 14): it ends, invariants hold, no
view leaks hidden information (Gem Cards, face-down and removed tiles, another player's Gem Record),
no step's events as the platform logs and shows them (services/core/visibility.py) tell a seat or a
spectator what 14.3 hides, states round-trip through bytes and a replay of the log reproduces the
match. Random play from set-up of every variant and seat count is tests/engine/test_conformance.py's, for every game."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from services.core.visibility import redact
from shared.engine import CHANCE, TERMINAL
from shared.engine.playout import random_playout
from shared.eventlog import GENESIS, Sealer, link
from shared.wizards.pack import pack
from shared.wizards.state import WizardsState
from tests.wizards.scenario import ENGINE

pytestmark = pytest.mark.slow  # random play to the end, many times: `make test-fast` leaves it out

GEM_IDS = [f'"{c["id"]}"' for c in pack().gem_cards]


def scramble(state: WizardsState, seat: int, rng: random.Random) -> WizardsState:
    """The same state with everything `seat` may not know changed (on a copy of its own)."""
    s = ENGINE.decode(ENGINE.encode(state))
    for deck in s.decks.values():
        rng.shuffle(deck)
    values = list(s.gem_boxes.values())
    rng.shuffle(values)
    s.gem_boxes = dict(zip(s.gem_boxes, values))
    t = s.tiles
    hidden = [p for p in t["placed"] if p["face_down"]]
    pool = [p["tile"] for p in hidden] + t["stack"] + t["removed"]
    rng.shuffle(pool)
    for p in hidden:
        p["tile"] = pool.pop()
    t["stack"] = [pool.pop() for _ in range(len(t["stack"]))]
    t["removed"] = pool
    for p in s.players:
        if p["seat"] != seat:
            p["gems"] = {"Ishkatar": rng.choice(["Ruby", "Onyx"])}
            p["secret_record"] = {"A": rng.choice(["Terek", "Veldor"])}
            p["false_wizard"] = rng.choice(["Aevarex", None])
    return s


def check_state(state: WizardsState, rng: random.Random) -> None:
    ENGINE.check_invariants(state)
    assert ENGINE.decode(ENGINE.encode(state)) == state
    for seat in list(range(state.seats)) + [None]:
        v = ENGINE.view(state, seat)
        text = json.dumps(v)
        assert not any(g in text for g in GEM_IDS), "a Gem Card shows"
        if state.tiles["face_down"]:
            assert all(p["tile"] is None for p in v["tiles"]["placed"])
        for t in state.tiles["removed"]:
            assert f'"{t}"' not in json.dumps(v["tiles"]), "a removed tile shows"
        if rng.random() < 0.2:
            scrambled = scramble(state, seat if seat is not None else -1, rng)
            assert ENGINE.view(scrambled, seat) == v, "a view depends on hidden state"


SEALER = Sealer(bytes(range(32)), "property-match")  # a chain-2 log's sealer (chain 1: none)


def confidential(before: WizardsState, after: WizardsState, reader: int | None) -> tuple[set, set]:
    """14.3: what `reader` (None: a spectator) may not know of the others' Gem Records and Secret Wizard
    Records in a step (before or after it): their (High Wizard, Gem) and (letter, Wizard) entries that are
    not on his own records."""
    gems, secrets, mine_g, mine_s = set(), set(), set(), set()
    for s in (before, after):
        for p in s.players:
            own = p["seat"] == reader
            (mine_g if own else gems).update(p["gems"].items())
            (mine_s if own else secrets).update(p["secret_record"].items())
    return gems - mine_g, secrets - mine_s


def tells(body, gems: set, secrets: set) -> str | None:
    """Which confidential entry a shown event body states, if any: a {"wizard", "gem"} pair or a Gem
    Record mapping, a partner's Gem exchange naming its High Wizard (Appendix B: it names an entry of the
    giver's Gem Record), a {"letter", "wizard"} pair or a Secret Wizard Record mapping, anywhere in it."""
    if isinstance(body, list):
        return next((t for t in (tells(b, gems, secrets) for b in body) if t), None)
    if not isinstance(body, dict):
        return None
    for w, g in gems:
        named = body.get("wizard") == w and (body.get("gem") == g or body.get("kind") == "partner_gem")
        if named or body.get(w) == g:
            return f"the Gem Record entry {w}: {g}"
    for letter, w in secrets:
        if (body.get("letter") == letter and body.get("wizard") == w) or body.get(letter) == w:
            return f"the Secret Wizard Record entry {letter}: {w}"
    return next((t for t in (tells(b, gems, secrets) for b in body.values()) if t), None)


def check_events(before: WizardsState, after: WizardsState, seat: int | None, action: dict | None,
                 events: list[dict]) -> None:
    """One step's events logged as the platform logs them (the action, with the engine's `visible_to`
    for it, then the engine's events; services/core/matches.py), in chain 1 and chain 2, and shown to
    every seat and a spectator as the platform shows them while the match runs (visibility.redact): an
    event visible only to some seats reaches any other reader as its bare public form, with no salt;
    every other event is shown as logged; and nothing shown holds a Gem Card id, a deck's order, or an
    entry of another seat's Gem Record or Secret Wizard Record (14.3) but a Secret Wizard revealed to all
    players by landing on his marker (7.302 6)."""
    logged: list[tuple[str, dict]] = []
    if action is not None:
        body = {"seat": seat, "action": action, "action_id": "a"}
        private = ENGINE.action_visible_to(before, seat, action)
        if private is not None:
            body["visible_to"] = list(private)
        logged.append(("action", body))
    logged += [(e["type"], e) for e in events]
    decks = [json.dumps(d)[1:-1] for s in (before, after) for d in s.decks.values() if len(d) >= 3]
    for sealer in (None, SEALER):
        for reader in list(range(before.seats)) + [None]:
            gems, secrets = confidential(before, after, reader)
            for ev in link(logged, 0, GENESIS, sealer):
                full = json.loads(ev.body_json)
                shown = redact(ev, reader, False, sealer)
                body = json.loads(shown.body_json)
                if "visible_to" in full and reader not in full["visible_to"]:
                    assert body.get("redacted") is True and not shown.salt, (ev.type, reader)
                    assert set(body) == ({"redacted"} if sealer is None else {"redacted", "sealed"}), (ev.type, body)
                else:
                    assert body == full, (ev.type, reader)
                text = shown.body_json
                assert not any(g in text for g in GEM_IDS), f"a Gem Card shows to {reader} in {ev.type}"
                assert not any(d in text for d in decks), f"a deck's order shows to {reader} in {ev.type}"
                public = set()
                if ev.type == "secret_wizard_revealed":  # 7.302 6: landing on his marker reveals him to all
                    public = {(full["letter"], full["wizard"])}
                leak = tells(body, gems, secrets - public)
                assert leak is None, f"{leak} shows to {reader} in {ev.type}: {body}"


def play_from(start, rng: random.Random, steps: int, on_events=None, prefer=None):
    """Random legal play from `start` (not set-up), every state checked (check_state) and every step's
    events as every seat and a spectator are shown them (check_events): the state it ends in (TERMINAL,
    or after `steps`), and its log, which `replay_from` runs again. `prefer(actions)`: the action to take
    when it names one (None: a random one)."""
    chosen: list = [None]
    pending: list = []
    counted = {"steps": 0}

    def choose(_, __, actions):
        chosen[0] = (prefer and prefer(actions)) or rng.choice(actions)  # random as random_playout's own
        return chosen[0]

    def step_done(before, events):
        who = ENGINE.actor(before)
        pending.append((before, None if who == CHANCE else who, None if who == CHANCE else chosen[0], events))
        if on_events:
            on_events(events)

    def on_state(s):
        while pending:
            before, who, action, events = pending.pop(0)
            check_events(before, s, who, action, events)
            counted["steps"] += 1
        check_state(s, rng)

    end, log = random_playout(ENGINE, None, rng, steps, choose=choose, on_state=on_state, start=start,
                              on_step=step_done)
    on_state(end)
    assert counted["steps"] == len(log), "every step's events were checked"
    return end, log


def replay_from(start, log):
    again = start
    for step in log:
        again = ENGINE.apply_chance(again, step[1])[0] if step[0] == "chance" else ENGINE.apply(again, *step[1:])[0]
    return again


def equip(rng: random.Random):
    """Give players Orders, Ranks, Animals, afflictions, Movement Events and spare Boats at random, so random
    play meets the spells, animals and afflictions part two will hand out."""
    def prepare(s):
        from shared.wizards.world import world_for

        w = world_for(s)
        water = sorted(w.water)
        for _ in range(rng.randint(0, 4)):
            s.boats.append({"id": len(s.boats), "at": list(rng.choice(water)), "rider": None})
        movement_cards = [c["number"] for c in pack().event_cards if c["type"] == "movement"]
        for p in s.players:
            if rng.random() < 0.8:
                p["order"], p["rank"] = rng.choice(["wizards", "sorcerers", "druids"]), rng.randint(1, 4)
            roll = rng.random()
            if roll < 0.15:
                p["afflictions"] = [rng.choice(["demon_dazed", "dragonbound"])]
            elif roll < 0.7:
                kind = rng.choice(["unicorn", "winged_horse", "horse", "hound"])
                turns = {"unicorn": 1, "winged_horse": 2, "horse": 3, "hound": 4}[kind]
                p["animal"] = {"kind": kind, "turns": turns, "since": 0}
            if rng.random() < 0.4 and "dragonbound" not in p["afflictions"]:
                card = rng.choice(movement_cards)
                if card in s.decks["event"]:
                    s.decks["event"].remove(card)
                    p["events"].append({"card": card, "days": rng.randint(1, 4)})
            if rng.random() < 0.3:
                places = [("M1", "B1"), ("M1", "A3"), ("E4", "A3"), ("E5", "B4"), ("M3", "B1"), ("M6", "B3")]
                tile, label = rng.choice(places)
                p["at"] = list(w.hex_of[(tile, label)])
                if tile == "M6":
                    p["lair_time"] = 14 if "dragonbound" not in p["afflictions"] else None
            p["star_crest_directed"] = rng.random() < 0.2
        spots = [tuple(p["at"]) for p in s.players]
        assert spots
    return prepare


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(1, 6))
def test_random_play_with_spells_animals_and_afflictions(seed, seats):
    """From states holding Orders, Animals, afflictions and Boats, random legal play keeps every invariant,
    hides what it must, round-trips, ends, and replays to the same bytes."""
    from tests.wizards.scenario import build

    rng = random.Random(seed)
    start = build(seats=seats, days=4, prepare=equip(rng))
    s, log = play_from(start, rng, 3000)
    assert ENGINE.actor(s) == TERMINAL
    assert ENGINE.encode(replay_from(start, log)) == ENGINE.encode(s)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.sampled_from([4, 6]))
def test_random_partnership_play_hides_every_gem_record(seed, seats):
    """Appendix B / 14.3: random legal play of the partnership game from a meeting of partners 0 and 1 who
    both gather Gems (and every player gathers them) keeps every invariant, and no seat's view depends on
    another's Gem Record, nor do the events shown to the others tell it (check_events): exchanges included,
    for a Gem is given whenever one may be, and the play must give one."""
    from tests.wizards.scenario import build, resolving

    rng = random.Random(seed)

    def prepare(s):
        for p in s.players:
            p["order"], p["rank"] = "wizards", 4
            p["gems"] = {"Ishkatar": "Diamond"} if p["seat"] % 2 else {"Terek": "Topaz", "Veldor": "Ruby"}
        for p in s.players[1:]:
            p["at"] = list(s.players[0]["at"])  # everyone together
    built = build(seats=seats, days=2, prepare=prepare, variant="partnership")
    met, _ = resolving(built, {"do": "player", "seat": 0, "at": list(built.players[0]["at"]), "others": [1]})
    given = []
    s, _ = play_from(met, rng, 1500, lambda events: given.extend(e for e in events if e["type"] == "gem_given"),
                     prefer=lambda actions: next((a for a in actions if a["kind"] == "partner_gem"), None))
    assert ENGINE.actor(s) == TERMINAL
    assert len(given) >= 3, "both partners gave Gems"  # 0 gives Terek's and Veldor's, 1 Ishkatar's


def late_game(rng: random.Random):
    """Equipped players (as `equip`) in Fortnight 2, Day 11, with every Common and Elven Territory and three
    Sorcerers' Towers lost to Evil: the next Day 14 transports everyone (12.11), the ones after it take
    Hamdrel's Cottage and the Sacred Circle (12.12-12.13), and the Circle's fall ends the match (12.46)."""
    from tests.wizards.scenario import hex_of, take

    lost = [t for t in pack().tile_ids if t[0] in "CE"] + ["M2", "M3", "M4"]
    spots = [("M1", "B1"), ("M1", "B2"), ("M1", "B4"), ("M1", "B5"), ("M5", "A1"), ("M6", "A2")]

    def prepare(s):
        equip(rng)(s)
        take(s, *lost)
        from shared.wizards.world import world_for
        w = world_for(s)
        for p, (tile, label) in zip(s.players, spots):
            if w.tile_of(tuple(p["at"])) in lost:
                p["at"] = list(hex_of(s, tile, label))
                p["lair_time"] = 14 if tile == "M6" and "dragonbound" not in p["afflictions"] else None
        taken_spots = [tuple(p["at"]) for p in s.players]
        if len(set(taken_spots)) != len(taken_spots):  # 3.72: no two start in one space
            for p, (tile, label) in zip(s.players, spots):
                p["at"] = list(hex_of(s, tile, label))
                p["lair_time"] = 14 if tile == "M6" and "dragonbound" not in p["afflictions"] else None
        s.calendar = {"day": 11, "fortnight": 2, "days_played": 24}
    return prepare


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(1, 6))
@example(seed=11042, seats=3)  # a Dragonbound player healed by a High Wizard in the Lair (his Lair Time restarts)
def test_random_play_past_day_fourteen_ends_only_by_a_rule(seed, seats):
    """Random legal play through the Evil attacks (12.1-12.46) keeps every invariant, hides what it must,
    round-trips, replays to the same bytes, and ends only when the Sacred Circle falls (12.46): no time
    limit is set."""
    from tests.wizards.scenario import build

    rng = random.Random(seed)
    start = build(seats=seats, prepare=late_game(rng))
    attacks = []
    s, log = play_from(start, rng, 20000,
                       lambda events: attacks.extend(e for e in events if e["type"] == "evil_attacks"))
    assert ENGINE.actor(s) == TERMINAL and s.days_limit is None
    assert s.taken[-1] == "M1" and "Sacred Circle" in ENGINE.outcome(s).summary and len(attacks) >= 2
    assert ENGINE.encode(replay_from(start, log)) == ENGINE.encode(s)
