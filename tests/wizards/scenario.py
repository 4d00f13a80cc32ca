"""Building Wizards states directly for scenario tests: a fixed island layout, players
put where a test needs them, and scripted dice.

A state `build` returns shares nothing with any other state, so `prepare` and a test may
change it in place (`st.players[0]["rank"] = 2`, `st.boats.append(...)`). A state the
engine returned shares its fields that are not HOT (tiles, decks, ...) with the state
before it: change those through `st.edit("decks", "event")` or `st.replace(...)`, or
take a copy of its own first, `ENGINE.decode(ENGINE.encode(st))` (shared/wizards/state.py)."""
from __future__ import annotations

from shared.engine import CHANCE, MatchConfig
from shared.wizards import boats
from shared.wizards.engine import WizardsEngine, settle
from shared.wizards.pack import pack
from shared.wizards.state import WizardsState, new_state
from shared.wizards.world import world_for

ENGINE = WizardsEngine()

# Tile -> (Center hex, rotation). Lattice cells of the board, so tiles that are five
# apart share a coast; Hamdrel's Cottage sits one Water hex off the Sacred Circle and
# Woodland, and the Dragon's Lair hangs off Meligar's Tower in the north-east.
LAYOUT = {
    "C1": ((11, 8), 0), "C2": ((9, 5), 0), "C3": ((6, 10), 0), "C4": ((8, 13), 0), "C5": ((13, 11), 0),
    "C6": ((16, 6), 0), "E1": ((14, 3), 0), "E2": ((18, 9), 0), "E3": ((15, 14), 0), "E4": ((10, 16), 0),
    "E5": ((4, 7), 0), "E6": ((1, 12), 0), "M1": ((3, 15), 0), "M2": ((7, 2), 0), "M3": ((21, 4), 0),
    "M4": ((20, 12), 0), "M5": ((-3, 18), 0), "M6": ((26, 2), 0),
}


def build(seats: int = 2, layout: dict | None = None, at: dict | None = None, dragon: tuple = ("M6", "C3"),
          dealer: int = 0, days: int | None = None, prepare=None, variant: str = "standard") -> WizardsState:
    """A state in play on Day 1, the dealer about to roll for movement.

    `at` maps seat -> (tile, label); by default seat i starts on Meadowfarm (C5) spaces.
    `prepare(state)` runs before the first turn begins (give players Orders, animals...).
    `variant`: "standard" (also for one seat: the rules of the multi-player game on the full
    board, which the engine's set-up gives no client), "solitaire" (Appendix A's own winning and
    losing) or "partnership" (Appendix B). `days`: a time limit (options["days"]), none by default."""
    p = pack()
    st = new_state(seats, variant, {} if days is None else {"days": days}, days)
    st.decks = {"task": [c["number"] for c in p.task_cards], "event": [c["number"] for c in p.event_cards],
                "wizard": [c["id"] for c in p.wizard_cards]}
    st.gem_boxes = dict(zip(p.high_wizards, [c["id"] for c in p.gem_cards]))
    st.wizard_markers = {n: None for n in p.high_wizards}
    st.dealer = dealer
    for tile, (c, rot) in (layout or LAYOUT).items():
        st.tiles["placed"].append({"tile": tile, "at": list(c), "rotation": rot, "by": 0, "face_down": False})
    w = world_for(st)
    st.boats = [{"id": i, "at": list(m), "rider": None} for i, (_, m) in enumerate(boats.starting_boats(w))]
    st.dragon = list(w.hex_of[dragon])
    starts = at or {s: ("C5", ["A1", "A3", "A5", "B1", "B3", "B5"][s]) for s in range(seats)}
    for seat in range(seats):
        pl = st.players[seat]
        pl["colour"] = p.colours[seat]
        pl["at"] = list(w.hex_of[starts[seat]])
        pl["visited"] = [starts[seat][0]]
    st.phase = "play"
    st.turn = {"seat": dealer, "extra": False}
    st.step = "turn_start"
    if prepare:
        prepare(st)
    settle(st, [])
    return st


def solo(tile: str, label: str, prepare=None, **kw) -> WizardsState:
    """One player standing on a space, about to roll."""
    def prep(st):
        put(st, 0, tile, label)
        if prepare:
            prepare(st)
    return build(seats=1, at={0: (tile, label)}, prepare=prep, **kw)


def animal(kind: str, turns: int = 3, since: int = 0):
    """A `prepare` giving seat 0 an Animal with `turns` uses left."""
    return lambda s: s.players[0].update(animal={"kind": kind, "turns": turns, "since": since})


def hex_of(state: WizardsState, tile: str, label: str) -> tuple[int, int]:
    return world_for(state).hex_of[(tile, label)]


def put(state: WizardsState, seat: int, tile: str, label: str) -> tuple[int, int]:
    """Move a player's piece to a space (test set-up only)."""
    h = hex_of(state, tile, label)
    state.players[seat]["at"] = [h[0], h[1]]
    return h


def roll(state: WizardsState, white: int, red: int = 6) -> WizardsState:
    """Answer the Movement Roll with scripted dice."""
    assert ENGINE.actor(state) == CHANCE and state.chance["then"]["do"] == "movement_rolled", state.chance
    new, _ = ENGINE.apply_chance(state, [[white], [red]])
    return new


def moves(state: WizardsState, seat: int) -> dict:
    """(by, (q, r)) -> cost of every legal move."""
    return {(a["by"], tuple(a["to"])): a["cost"] for a in ENGINE.legal_actions(state, seat) if a["kind"] == "move"}


def move(state: WizardsState, seat: int, by: str, to: tuple[int, int]):
    cost = moves(state, seat)[(by, tuple(to))]
    return ENGINE.apply(state, seat, {"kind": "move", "by": by, "to": list(to), "cost": cost})


def end(state: WizardsState, seat: int = 0) -> WizardsState:
    """End the seat's movement and run on (dice showing 1) to the next Movement Roll."""
    if state.await_ and state.await_["for"] == "move":
        state, _ = ENGINE.apply(state, seat, {"kind": "end_move"})
    while state.chance["then"]["do"] != "movement_rolled":
        state, _ = ENGINE.apply_chance(state, [[1] * p["count"] for p in state.chance["request"]["pools"]])
    return state


def chance(state: WizardsState, *faces: int):
    """Answer a one-die-per-pool request with the given faces."""
    return ENGINE.apply_chance(state, [[f] for f in faces])


def config(seats: int = 2, variant: str | None = None, **options) -> MatchConfig:
    """A match configuration; with no variant named, the one a client naming none gets
    (one seat: the solitaire game, Appendix A)."""
    return MatchConfig(seats, variant or ENGINE.default_variant(seats), options=options)


# --- Tasks, Events and the resolution stack (section 9, 8.5) ------------------------------
def member(seat: int = 0, order: str = "wizards", rank: int = 1, **points):
    """A `prepare` making a seat a member of an Order at a Rank (joined on day 0), with points."""
    def prep(s):
        pl = s.players[seat]
        pl.update(order=order, rank=rank, rank_day=0)
        pl["points"].update(points)
    return prep


def both(*prepares):
    """Several `prepare` functions run in order."""
    def prep(s):
        for f in prepares:
            f(s)
    return prep


def hold_task(state: dict, seat: int, card: int, at: dict | None = None, done: int = 0,
              mandatory: bool = False) -> dict:
    """Give a seat Task `card` (test set-up only): its marked requirements marked in the
    spaces `at` maps step index -> (tile, label) to (missing ones are not marked), the first
    `done` requirements fulfilled (their markers off the board)."""
    from shared.wizards.tasks import new_record
    rec = new_record(pack().task(card), mandatory, None, 0)
    for i, where in (at or {}).items():
        h = hex_of(state, *where)
        rec["steps"][i]["at"] = [h[0], h[1]]
        if i >= done:
            state.task_markers.append({"seat": seat, "task": card, "step": i, "at": [h[0], h[1]]})
    for i in range(done):
        rec["steps"][i]["done"] = True
    if card in state.decks["task"]:
        state.decks["task"].remove(card)
    state.players[seat]["tasks"].append(rec)
    return rec


def bound_for_a_task(demon: tuple | list | None = None, white: int = 2) -> WizardsState:
    """A Wizard of Rank ONE alone on Meadowfarm (C5) A1, holding Task 69 with its requirement on C4 of the
    same Territory, having rolled `white` for movement; a Demon on the space `demon` if one is given (the
    policy's walk round a Demon, 7.304)."""
    def prep(s):
        member(order="wizards")(s)
        hold_task(s, 0, 69, at={0: ("C5", "C4")})
        if demon:
            s.demons.append(list(demon))
    return roll(build(seats=1, at={0: ("C5", "A1")}, prepare=prep), white)


def ready_to_advance(power: int = 15, white: int = 2, rank_day: int = -10) -> WizardsState:
    """A Sorcerer of Rank ONE alone on Meadowfarm (C5) A1 with the points for Rank TWO (10.12: 10 Knowledge,
    5 Perception, 15 Power; fewer with a lower `power`), a Rank ONE since day `rank_day` (the three days of
    10.21 long past; 0: not yet, on Day 1), holding Task 69 with its requirement on C4 of the same Territory,
    having rolled `white` for movement."""
    def prep(s):
        member(order="sorcerers", knowledge=10, perception=5, power=power)(s)
        s.players[0]["rank_day"] = rank_day
        hold_task(s, 0, 69, at={0: ("C5", "C4")})
    return roll(build(seats=1, at={0: ("C5", "A1")}, prepare=prep), white)


def top_deck(state: dict, deck: str, *cards) -> None:
    """Put cards on top of a deck in this order (test set-up only)."""
    for c in reversed(cards):
        state.decks[deck].remove(c)
        state.decks[deck].insert(0, c)


def resolve(state: dict, *items: dict) -> tuple[dict, list]:
    """Resolve items as if an encounter had pushed them, from a state waiting for its
    Movement Roll; the flow returns to that roll afterwards. Returns (state, events)."""
    from shared.wizards import resolution
    s = ENGINE.decode(ENGINE.encode(state))  # a state of its own, to change in place
    if s.await_ and s.await_["for"] == "pre_roll":  # Transporting may replace his roll
        s.await_, then = None, "pre_roll"
    else:
        assert s.chance["then"]["do"] == "movement_rolled", "resolve starts from a Movement Roll"
        s.chance, then = None, "movement_roll"
    resolution.begin(s, list(items), then)
    events: list = []
    settle(s, events)
    return s, events


def choose(state: dict, seat: int, kind: str, **fields):
    """Answer a choice of the resolution stack with the listed action of that kind and fields."""
    legal = [a for a in ENGINE.legal_actions(state, seat) if a["kind"] == kind
             and all(a.get(k) == v for k, v in fields.items())]
    assert len(legal) == 1, (kind, fields, ENGINE.legal_actions(state, seat))
    return ENGINE.apply(state, seat, legal[0])


def waiting_for_roll(state: dict) -> bool:
    """The resolution stack is empty and the turn is back at its Movement Roll."""
    if state.await_ and state.await_["for"] == "pre_roll":
        return not state.pending
    return state.chance is not None and state.chance["then"]["do"] == "movement_rolled" and not state.pending


# --- Mentors and places (7.3x, 8.7) -------------------------------------------------------
def roll_through(state: dict, face: int = 1) -> dict:
    """Answer every chance step that is not a Movement Roll with dice showing `face` (1 by
    default: the tables' mildest results for a player in no Order) until the state waits
    for a seat or for the next Movement Roll."""
    while state.chance is not None and state.chance["then"]["do"] != "movement_rolled":
        state, _ = ENGINE.apply_chance(state, [[face] * p["count"] for p in state.chance["request"]["pools"]])
    return state


def answer(state: dict, seat: int, **fields) -> tuple[dict, list]:
    """Pick the one legal choice whose fields include `fields` (an encounter's choice)."""
    acts = [a for a in ENGINE.legal_actions(state, seat) if all(a.get(k) == v for k, v in fields.items())]
    assert len(acts) == 1, (fields, ENGINE.legal_actions(state, seat))
    return ENGINE.apply(state, seat, acts[0])


def joined(order: str, rank: int = 1, seat: int = 0, **points):
    """A `prepare` putting a seat in an Order at a Rank, with points by type."""
    def prep(st):
        p = st.players[seat]
        p.update(order=order, rank=rank, rank_day=-10)
        p["points"].update(points)
    return prep


def rolling(state: dict) -> dict:
    """A state offering Transporting before the Movement Roll (11.213) goes on to the roll."""
    if state.await_ and state.await_["for"] == "pre_roll":
        state, _ = ENGINE.apply(state, state.await_["seat"], {"kind": "roll"})
    return state


def run_items(state: dict, *items: dict) -> tuple[dict, list]:
    """Resolve items on the resolution stack from a state waiting for its Movement Roll
    (as an encounter of that moment would), then wait for that roll again."""
    from shared.wizards import resolution
    st = rolling(state)
    st = ENGINE.decode(ENGINE.encode(st))  # a state of its own, to change in place
    assert st.chance["then"]["do"] == "movement_rolled"
    st.chance = None
    events: list = []
    resolution.begin(st, list(items), "movement_roll")
    settle(st, events)
    return st, events


def enter(tile: str, label: str, prepare=None, white: int = 6, seats: int = 1, **kw) -> tuple[dict, list]:
    """Seat 0 walks into a space from a neighbouring space of the same tile (red die 6:
    no Random Encounter); the state and the events of the move."""
    from shared.hexgrid import neighbours
    probe = build(seats=seats, prepare=prepare, **kw)
    w = world_for(probe)
    target = w.hex_of[(tile, label)]
    for n in neighbours(target):
        s = w.spaces.get(n)
        if s is None or s.tile != tile or s.kind not in ("plains", "woods", "mountains"):
            continue
        def prep(st, n=n):
            st.players[0]["at"] = [n[0], n[1]]
            if prepare:
                prepare(st)
        st = roll(rolling(build(seats=seats, prepare=prep, **kw)), white)
        if ("walk", target) in moves(st, 0):
            return move(st, 0, "walk", target)
    raise AssertionError(f"no walk into {tile} {label}")


# --- part two: encounters on the resolution stack ------------------------------------------
# Append-only builders for tests of encounters, spells and other players (sections 7, 8, 11).

def ranked(seat: int, order: str | None, rank: int, **fields):
    """A `prepare` putting a player in an Order at a Rank (and any other player fields)."""
    def prep(s):
        s.players[seat].update(order=order, rank=rank, **fields)
    return prep


def resolving(state: dict, *items: dict, then: str = "turn_end") -> tuple[dict, list]:
    """The state with `items` put on the resolution stack (as an encounter would), settled:
    the first item given resolves first; afterwards the flow goes on at `then`."""
    from shared.wizards import resolution
    st = ENGINE.decode(ENGINE.encode(state))  # a state of its own, to change in place
    st.chance = st.await_ = None
    resolution.begin(st, list(items), then)
    events: list = []
    settle(st, events)
    return st, events


def top(state: dict) -> dict | None:
    """The item the resolution stack resolves next."""
    return state.pending[-1] if state.pending else None


def waits_for(state: dict) -> str | None:
    """What the state waits for: the `then` of its dice, or the seat's purpose."""
    if state.chance:
        return state.chance["then"]["do"] if state.chance["then"]["do"] != "pending" \
            else state.chance["then"]["item"]
    return state.await_["for"] if state.await_ else None


class Recorder:
    """Stands in for an item kind resolved elsewhere (another module not yet written):
    records each item that reaches it and finishes it. Use with `record_kinds`."""

    rule = "test"
    kinds: tuple = ()

    def __init__(self):
        self.items: list = []

    def run(self, state, item, events):
        from shared.wizards import resolution
        self.items.append({k: v for k, v in item.items() if k != "stage"})
        resolution.done(state, item)


def record_kinds(monkeypatch, *kinds: str) -> dict:
    """Register a Recorder for each kind not yet handled; kind -> the items it saw."""
    from shared.wizards import resolution
    seen = {}
    for k in kinds:
        if k in resolution.HANDLERS and not isinstance(resolution.HANDLERS[k], Recorder):
            continue
        rec = Recorder()
        monkeypatch.setitem(resolution.HANDLERS, k, rec)
        seen[k] = rec.items
    return seen


def isolated_cottage_layout() -> dict:
    """LAYOUT with Hamdrel's Cottage moved out of swimming range of every other tile."""
    layout = dict(LAYOUT)
    layout["M5"] = ((-7, 19), 0)
    return layout


def lair_crossroads_layout() -> dict:
    """LAYOUT with the Dragon's Lair and Sunnyvale (C1) changing places: the Lair lies between
    tiles, so some cheapest walks cross it (from C2 B2 through M6 B5 to E1 B3)."""
    layout = dict(LAYOUT)
    layout["M6"], layout["C1"] = LAYOUT["C1"], LAYOUT["M6"]
    return layout


# --- the Gems, solitaire and partnership (13, Appendix A, Appendix B) ---------------------
def gems(seat: int = 0, *wizards: str, six: bool = False):
    """A `prepare` writing on a seat's Gem Record the Gems of these High Wizards (as their Gem
    Cards in the boxes read); `six=True`: of every High Wizard but the False one (all six Gems)."""
    def prep(st):
        from shared.wizards.wizardcards import gem_card
        names = wizards
        if six:
            names = tuple(n for n, g in st.gem_boxes.items() if not gem_card(g).get("false_wizard"))
        for n in names:
            st.players[seat]["gems"][n] = gem_card(st.gem_boxes[n])["gem"]
    return prep


def false_wizard(state: WizardsState) -> str:
    """The High Wizard whose box holds the FALSE WIZARD card."""
    from shared.wizards.wizardcards import gem_card
    return next(n for n, g in state.gem_boxes.items() if gem_card(g).get("false_wizard"))


def lone_lair_layout() -> dict:
    """LAYOUT with the Dragon's Lair out of swimming range of every other tile."""
    layout = dict(LAYOUT)
    layout["M6"] = ((32, -2), 0)
    return layout


def open_water(state: WizardsState) -> tuple[int, int]:
    """A Water space beyond swimming range of any land and with no Boat (7.3031 b)."""
    w = world_for(state)
    return next(h for h in sorted(w.water) if all(w.is_water(n) for n in w.neighbours(h))
                and all(tuple(b["at"]) != h for b in state.boats))


def in_open_water(seat: int = 0):
    """A `prepare` putting a seat in open Water (stranded there, 7.3031 b)."""
    def prep(st):
        h = open_water(st)
        st.players[seat]["at"] = [h[0], h[1]]
    return prep


# --- section 12: the Evil attack ---------------------------------------------------------------
def day_fourteen(seats: int = 2, fortnight: int = 1, prepare=None, **kw) -> tuple[WizardsState, list]:
    """The Day Marker reaching Day 14 of `fortnight`: a state (built as `build` does, `prepare`
    run first) whose last turn of Day 13 is over, settled from the dealer's advance; with the
    events of that advance (12.1). The attack then waits for its first dice, or (thwarted) the
    dealer's Day 14 turn begins."""
    def late(s):
        s.calendar = {"day": 13, "fortnight": fortnight, "days_played": 14 * (fortnight - 1) + 12}
        if prepare:
            prepare(s)
    st = ENGINE.decode(ENGINE.encode(build(seats=seats, prepare=late, **kw)))
    st.chance = st.await_ = None
    st.pending = []
    st.turn = {"seat": (st.dealer - 1) % st.seats, "extra": False}
    st.step = "next_turn"
    events: list = []
    settle(st, events)
    return st, events


def random_space_faces(tile: str, label: str) -> list[int]:
    """The four dice of a RANDOM space (4.1, 4.211) that land on (tile, label): type, number, letter, number."""
    white = {"C": 1, "E": 3, "M": 5}[tile[0]]
    return [white, int(tile[1]), "ABC".index(label[0]) * 2 + 1, int(label[1])]


def space_faces(label: str) -> list[int]:
    """The two dice of an exact space in a SPECIFIC Territory (4.2) that land on `label`."""
    return ["ABC".index(label[0]) * 2 + 1, int(label[1])]


def take(state: WizardsState, *tiles: str) -> None:
    """Territories already taken by Evil (test set-up only, 12.12)."""
    state.replace("taken", list(state.taken) + list(tiles))


def wizard_marker(state: WizardsState, name: str, tile: str, label: str) -> None:
    """A High Wizard's marker on a space with his card kept aside for it (8.74; test set-up only)."""
    card = "W" + str(1 + list(state.wizard_markers).index(name))
    state.wizard_markers[name] = list(hex_of(state, tile, label))
    state.decks["wizard"].remove(card)
    state.wizard_aside.append(card)
    state.aside_for[name] = [card]


def answer_dice(state: WizardsState, face: int = 1, until: str = "movement_rolled") -> tuple[WizardsState, list]:
    """Answer every chance step with dice showing `face` until the state waits for `until` (a chance
    handler), for a seat, or is over; with the events on the way."""
    events: list = []
    while state.chance is not None and state.chance["then"]["do"] != until:
        state, more = ENGINE.apply_chance(state, [[face] * p["count"] for p in state.chance["request"]["pools"]])
        events += more
    return state, events
