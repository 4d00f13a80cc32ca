"""The Sequence of Play (section 5, 3.74) as steps, and the movement actions.

    turn_start      lost turns are spent (8.3, 7.304); Transporting may replace the roll
    pre_roll        the player chooses: roll, or cast Transporting (11.213)
    movement_roll   two dice: white = Movement Points, red 1-3 = a Random Encounter may follow (5.1, 5.21)
    movement        the player moves, casts Movement Spells, ends his movement (section 6)
    summon_boat     a Boat Summoning succeeded: he picks the Boat and the Water space (11.211)
    encounter       what the space calls for (5.2, sections 7-8), then `resolve` until
                    the resolution stack is empty (resolution.py)
    turn_end        the Dragon moves if he ends his turn in the Lair (12.52)
    turn_close      Animals count down their turns (8.43-8.46)
    next_turn       extra turns, then the player on the left; the dealer advances the Day
                    Marker before his turn (3.74); on Day 14 the Evil attack comes first
                    (12.1, evil.py), and a time limit (options["days"]) may end the match
"""
from __future__ import annotations

from shared.engine import MalformedAction, RuleViolation, d6
from shared.hexgrid import distance
from shared.wizards import boats, casting, eventcards, lair, remaining, resolution
from shared.wizards.arrival import arrive
from shared.wizards.cards import movement_modifiers
from shared.wizards.dice import ask
from shared.wizards.encounters import encounters_due, resolve_encounters
from shared.wizards.movement import ANIMAL_BONUS, Move, legal_moves, mover, options, refusal, route, walk_search
from shared.wizards.pack import LAIR_TILE, pack
from shared.wizards.state import Turn, WizardsState, current_turn, hx, ls, next_seat, player
from shared.wizards.world import world_for


def fresh_turn(seat: int, extra: bool, number: int) -> Turn:
    return {"seat": seat, "extra": extra, "number": number, "roll": None, "mp": 0, "bonus": 0, "moved": False,
            "ended": False, "boarded": None, "swiftness": [], "cast": [], "arrived": False, "summon": None}


def step_turn_start(state: WizardsState, events: list) -> None:
    seat, extra = current_turn(state)["seat"], current_turn(state).get("extra", False)
    p = player(state, seat)
    p["turns_taken"] += 1
    state.turn = fresh_turn(seat, extra, p["turns_taken"])
    if seat in state.resigned:  # a player who withdrew takes no more turns (withdrawal.py)
        events.append({"type": "turn_passed", "seat": seat, "why": "withdrew"})
        state.turn["ended"] = True
        state.step = "next_turn"
        return
    events.append({"type": "turn_begins", "seat": seat, "day": state.calendar["day"], "extra": extra})
    if p["lost_turns"] > 0:
        p["lost_turns"] -= 1
        events.append({"type": "turn_lost", "seat": seat, "left": p["lost_turns"]})
        if p["lost_turns"] == 0 and p["trap"] is not None and p["trap"].get("lose_turns") is not None:
            p["trap"] = None  # a Trap of lost turns expires with the last turn lost (7.3032, 8.51)
            events.append({"type": "trap_ends", "seat": seat, "rule": "8.51"})
        state.turn["ended"] = True
        state.turn["lost"] = True
        state.step = "encounter"
        return
    if remaining.start_detained(state, seat, events):  # 7.301 3: he stays and meets the Common Folk again
        state.step = "encounter"
        return
    nxt = "pre_roll" if casting.transport_casts(state, seat) else "movement_roll"
    if p["dragon_again"]:  # 7.305 5: he must remain in the Center and encounter the Dragon again
        p["dragon_again"] = False
        events.append({"type": "must_remain", "seat": seat, "rule": "7.305 5"})
        state.turn["ended"] = state.turn["dragon_again"] = True
        nxt = "encounter"
    offers = [i for i in (hook(state, seat) for hook in TURN_START_HOOKS) if i]
    if eventcards.kept_uses(state, seat):  # 8.51: a kept Event Card may be used now
        offers.append({"do": "kept_cards", "seat": seat})
    if offers:
        resolution.begin(state, offers, nxt)
        return
    state.step = nxt


# Items offered at the start of a player's own turn (7.3031: asking for help when stranded;
# 11.222 Demon Dispelling): each hook gives an item or None for (state, seat).
TURN_START_HOOKS: list = []


def step_pre_roll(state: WizardsState, events: list) -> None:
    state.await_ = {"seat": current_turn(state)["seat"], "for": "pre_roll"}


def legal_pre_roll(state: WizardsState, seat: int) -> list[dict]:
    return [{"kind": "roll"}] + casting.transport_casts(state, seat)


def act_roll(state: WizardsState, seat: int, action: dict, events: list) -> None:
    if set(action) != {"kind"}:
        raise MalformedAction("roll takes no fields")
    state.step = "movement_roll"


def step_movement_roll(state: WizardsState, events: list) -> None:
    ask(state, [d6("white die: Movement Points"), d6("red die: Random Encounter on 1-3")], {"do": "movement_rolled"})


def on_movement_rolled(state: WizardsState, then: dict, faces: list, events: list) -> None:
    t = current_turn(state)
    seat = t["seat"]
    p = player(state, seat)
    white, red = faces[0][0], faces[1][0]
    add, _ = movement_modifiers(p)
    base = white + add
    if add < 0:
        base = max(base, pack().terrain["movement_penalty_floor"]["value"])
    bonus = ANIMAL_BONUS.get(p["animal"]["kind"], 0) if p["animal"] else 0
    trap = p["trap"]
    if trap is not None and trap.get("roll_to_leave"):
        if white in trap["roll_to_leave"]:  # 8.3 result 5: once he rolls it, the Trap expires
            p["trap"] = None
            events.append({"type": "trap_ends", "seat": seat, "rule": "8.3"})
        else:
            base = bonus = 0
            events.append({"type": "still_trapped", "seat": seat, "needs": trap["roll_to_leave"]})
    t["roll"] = {"white": white, "red": red}
    t["mp"], t["bonus"] = base + bonus, bonus
    events.append({"type": "movement_roll", "seat": seat, "white": white, "red": red, "points": t["mp"],
                   "random_encounter": red <= 3})
    state.step = "movement"


def step_movement(state: WizardsState, events: list) -> None:
    t = current_turn(state)
    if t["ended"] or t["mp"] <= 0:
        state.step = "encounter"
        return
    state.await_ = {"seat": t["seat"], "for": "move"}


def legal_movement(state: WizardsState, seat: int) -> list[dict]:
    return legal_moves(state, seat) + casting.movement_casts(state, seat) + [{"kind": "end_move"}]


def read_move(action: dict) -> tuple[str, tuple[int, int]]:
    by, to = action.get("by"), action.get("to")
    if not isinstance(by, str) or by not in ("walk", "swim", "sail", "stone", "circle", "fly", "ride"):
        raise MalformedAction("move needs 'by': walk, swim, sail, stone, circle, fly or ride")
    if not (isinstance(to, list) and len(to) == 2 and all(type(v) is int for v in to)):
        raise MalformedAction("move needs 'to': [q, r] with integer q and r")
    if "cost" in action and type(action["cost"]) is not int:
        raise MalformedAction("a move's 'cost' is an integer")
    extra = set(action) - {"kind", "by", "to", "cost"}
    if extra:
        raise MalformedAction(f"move has unknown fields {sorted(extra)}")
    return by, (to[0], to[1])


def act_move(state: WizardsState, seat: int, action: dict, events: list) -> None:
    by, to = read_move(action)
    move = options(state, seat).get((by, to))
    if move is None:
        raise refusal(state, seat, by, to)
    if "cost" in action and action["cost"] != move.cost:
        raise RuleViolation("6", f"that move costs {move.cost} Movement Points, not {action['cost']}")
    apply_move(state, seat, move, events)


def apply_move(state: WizardsState, seat: int, move: Move, events: list) -> None:
    p, t = player(state, seat), current_turn(state)
    w = world_for(state)
    old = hx(p["at"])
    if move.by == "walk":
        lair_on_the_way(state, seat, old, move, events)
    t["mp"] -= move.cost
    if move.animal_leaves:
        assert p["animal"] is not None, "only an Animal with him can leave him"
        events.append({"type": "animal_departs", "seat": seat, "animal": p["animal"]["kind"], "rule": "8.45-8.46"})
        p["animal"] = None
        t["bonus"] = 0
    if move.by == "sail":
        assert p["boat"] is not None, "one sails in a Boat"
        boats.move_boat(state, p["boat"], ls(move.to), events)  # with a Demon left in it (12.141)
    elif p["boat"] is not None:
        state.edit("boats", p["boat"])["rider"] = None  # he steps out; the Boat stays
        p["boat"] = None
    if move.boards is not None:
        state.edit("boats", move.boards)["rider"] = seat
        p["boat"] = move.boards
        t["boarded"] = move.boards
    if move.by == "ride":  # 8.43: after this one use the Unicorn departs
        events.append({"type": "animal_departs", "seat": seat, "animal": "unicorn", "rule": "8.43"})
        p["animal"] = None
    t["moved"] = t["arrived"] = True
    if move.ends:
        t["ended"] = True  # 7.2 and the whole-turn moves
    events.append({"type": "moved", "seat": seat, "by": move.by, "from": ls(old), "to": ls(move.to),
                   "cost": move.cost, "space": w.space_name(move.to), "points_left": t["mp"]})
    arrive(state, seat, old, move.to, move.by, events)


def lair_on_the_way(state: WizardsState, seat: int, old, move: Move, events: list) -> None:
    """12.511 / 8.421 along a walk: every Lair space walked through places (and leaving removes)
    the Lair Time Marker and calls an absent Dragon home, not only where the walk ends. The
    path is the cheapest walk the move was listed for (movement.walk_search, route)."""
    w = world_for(state)
    if old is None or not any(distance(old, h) < move.cost for h in w.tile_spaces(LAIR_TILE)):
        return  # no Lair space lies strictly on the way
    reached = walk_search(state, w, mover(state, seat))
    node = next((n for n in reached if n[0] == move.to), None)
    if node is None:
        return
    path = [n[0] for n in route(reached, node)][:-1]
    if not any(w.in_lair(h) for h in path):
        return
    prev = old
    for h in path:
        lair.track(state, w, seat, prev, h, events)
        lair.recall_if_away(state, w, h)
        prev = h
    if prev is not None and w.in_lair(prev) and not w.in_lair(move.to):
        lair.track(state, w, seat, prev, move.to, events)


def act_end_move(state: WizardsState, seat: int, action: dict, events: list) -> None:
    if set(action) != {"kind"}:
        raise MalformedAction("end_move takes no fields")
    current_turn(state)["ended"] = True
    events.append({"type": "movement_ends", "seat": seat})


def step_summon_boat(state: WizardsState, events: list) -> None:
    state.await_ = {"seat": current_turn(state)["seat"], "for": "summon_boat"}


def step_encounter(state: WizardsState, events: list) -> None:
    seat = current_turn(state)["seat"]
    due = encounters_due(state, world_for(state), seat)
    resolve_encounters(state, seat, due, events, "turn_end")


def step_turn_end(state: WizardsState, events: list) -> None:
    at = hx(player(state, current_turn(state)["seat"])["at"])
    if at is not None and world_for(state).in_lair(at):  # 12.52, 8.4211
        lair.ask_dragon_move(state, "12.52", "turn_close")
        return
    state.step = "turn_close"


def step_turn_close(state: WizardsState, events: list) -> None:
    seat = current_turn(state)["seat"]
    p = player(state, seat)
    a = p["animal"]
    if a is not None and a["since"] < p["turns_taken"]:  # a turn the animal could be used has passed
        a["turns"] -= 1
        if a["turns"] <= 0:
            events.append({"type": "animal_departs", "seat": seat, "animal": a["kind"], "rule": "8.43-8.46 uses"})
            p["animal"] = None
    state.step = "next_turn"


def step_next_turn(state: WizardsState, events: list) -> None:
    seat = current_turn(state)["seat"]
    p = player(state, seat)
    if p["extra_turns"] > 0:
        p["extra_turns"] -= 1
        state.turn = {"seat": seat, "extra": True}
        state.step = "turn_start"
        return
    nxt = next_seat(state, seat)
    due: list[dict] = []
    if nxt == state.dealer and advance_day(state, events, due):
        return
    state.turn = {"seat": nxt, "extra": False}
    state.step = "turn_start"
    if due:  # delayed Event Cards whose days have passed (8.51)
        resolution.begin(state, due, "turn_start")


def advance_day(state: WizardsState, events: list, due: list | None = None) -> bool:
    """3.74: the dealer moves the Day Marker on before his next turn; Events and Lair Time
    count the day (8.51, 12.511; Day 14 too, 12.1), then DAY_HOOKS (evil.py: the attack of
    Day 14, 12.1, and the new Fortnight, 12.3). True when the flow goes elsewhere: the Evil
    attack is being resolved, or the match is over (the time limit of options["days"]:
    evil.time_is_up)."""
    cal = state.calendar
    cal["days_played"] += 1
    if state.days_limit and cal["days_played"] >= state.days_limit:
        TIME_UP[0](state, events)
        return True
    cal["day"] = cal["day"] % 14 + 1
    if cal["day"] == 1:
        cal["fortnight"] += 1
    events.append({"type": "day_advanced", "day": cal["day"], "fortnight": cal["fortnight"]})
    due = due if due is not None else []
    eventcards.day_passed(state, events, due)  # 8.51; Day 14 counts (12.1)
    lair.day_check(state, events)
    return any([hook(state, events, due) for hook in DAY_HOOKS])


# Set by evil.py: what the Day Marker's moving on sets off (12.1 the Evil attack of Day 14, 12.3
# the next Fortnight), each hook (state, events, due) -> True when it takes the flow; and how
# the match ends when its time limit is up.
DAY_HOOKS: list = []
TIME_UP: list = []


STEPS = {
    "resolve": resolution.step_resolve, "turn_start": step_turn_start, "pre_roll": step_pre_roll,
    "movement_roll": step_movement_roll, "movement": step_movement, "summon_boat": step_summon_boat,
    "encounter": step_encounter, "turn_end": step_turn_end, "turn_close": step_turn_close, "next_turn": step_next_turn,
}
CHANCE = {"movement_rolled": on_movement_rolled, "spell_cast": casting.on_spell_cast,
          "transported": casting.on_transported, "dragon_moved": lair.on_dragon_moved,
          "pending": resolution.on_rolled}
ACTIONS = {"roll": act_roll, "move": act_move, "end_move": act_end_move, "cast": casting.act_cast,
           "summon_boat": casting.act_summon_boat}
LEGAL = {"pre_roll": legal_pre_roll, "move": legal_movement, "summon_boat": casting.legal_summons,
         "choice": resolution.legal_choices}
