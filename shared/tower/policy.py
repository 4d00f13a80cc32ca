"""A sensible AI seat for Tower of the Wizard King, reading only its own view.

It heads for its own Wizard symbols and its Home Castle, turns over unknown tokens,
attacks Castles when the dice odds (the defender's re-rolls counted) make the swing worth it,
transforms before a battle when a player would (the Characters it might become fight that
defender better, the next step holds a Ramp token, or it leads and wants the King on his
Tower), re-rolls its lowest dice when a defence is being lost, and aims spells at its biggest
Castles or the leader's. In set-up it eliminates lopsided Characters and takes any Wizard.
Everything it uses is public: the view, the legal list and the content pack.
"""
from __future__ import annotations

import random
from itertools import product

from shared.tower.battle import winner
from shared.tower.odds import attacker_wins_against_rerolls
from shared.tower.pack import pack


def choose(view: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
    if len(legal) == 1:
        return legal[0]
    kinds = {a["kind"] for a in legal}
    if "eliminate_character" in kinds:
        return _eliminate_character(view, legal)
    if kinds & {"eliminate_wizard", "select_wizard"}:
        # the Wizards differ only in colour: each has 4 symbols placed at random and 25 Pennants
        return rng.choice(legal)
    if "move" in kinds or "fly" in kinds:
        return _go(view, seat, legal, rng)
    if "fight" in kinds:
        return _ready(view, seat, legal, rng)
    if "accept" in kinds:
        return _defend(view, legal)
    if "declare" in kinds:
        return max(legal, key=lambda a: (_odds(view, seat, a["seat"]), _score(view, a["seat"]), -a["seat"]))
    if "home" in kinds:
        # Pennants on the Castle count at the end; taking back a Home Castle is a swing of two
        for choice in ("pennants", "reclaim"):
            if {"kind": "home", "choice": choice} in legal:
                return {"kind": "home", "choice": choice}
        return legal[0]
    return max(legal, key=lambda a: (_spell_value(view, seat, a), rng.random()))


# --- set-up -----------------------------------------------------------------------------
def _margin(character: str, others: list[str]) -> float:
    """How lopsided a Character's fights are: dice it rolls minus dice rolled against it, on average."""
    dice = pack().dice
    return sum(dice[character][o] - dice[o][character] for o in others) / max(len(others), 1)


def _eliminate_character(view: dict, legal: list[dict]) -> dict:
    """Eliminate the Character whose fights are the most lopsided (the Orc, then the Dragon): Characters are
    dealt and come out of the Tower by chance, so a lopsided one adds luck for whoever draws it, and
    the AI would rather the odds it reads, and the transformations it times, decided the battles."""
    left = [a["character"] for a in legal]
    return max(legal, key=lambda a: (abs(_margin(a["character"], [c for c in left if c != a["character"]])),
                                     a["character"]))


# --- reading the view ---------------------------------------------------------------
def _me(view: dict, seat: int) -> dict:
    return view["players"][seat]


def _score(view: dict, seat: int) -> int:
    wizard = view["players"][seat]["wizard"]
    return sum(sq["pennants"]["count"] for sq in view["board"].values()
               if sq["pennants"] and sq["pennants"]["wizard"] == wizard)


def _seat_of(view: dict, wizard: str) -> int | None:
    return next((s for s, p in enumerate(view["players"]) if p["wizard"] == wizard), None)


def _odds(view: dict, attacker: int, defender: int, attacker_character: str | None = None,
          pennants: int = 0) -> float:
    """P(the attacker wins), counting the defender's re-rolls for `pennants` of his on the Castle."""
    p = pack()
    a = attacker_character or view["players"][attacker]["character"]
    d = view["players"][defender]["character"]
    return attacker_wins_against_rerolls(p.dice[a][d], p.dice[d][a], *p.reroll_allowance(pennants))


def _defended(view: dict, battle: dict) -> int:
    """The defender's Pennants on the Castle fought for (none in a battle for a symbol)."""
    if battle["kind"] != "castle":
        return 0
    pen = view["board"][battle["at"]]["pennants"]
    wizard = view["players"][battle["defender"]]["wizard"]
    return pen["count"] if pen and pen["wizard"] == wizard else 0


def _in_tower(view: dict) -> list[str]:
    """Who may come out of the Tower: every Character not held by a seat nor eliminated."""
    out = {p["character"] for p in view["players"]} | set(view["removed"]["characters"])
    return [c for c in pack().character_names if c not in out]


def _best_odds(view: dict, attacker: int, defender: int, pennants: int = 0) -> float:
    """The better of fighting as is and transforming (averaged over the Tower)."""
    now = _odds(view, attacker, defender, pennants=pennants)
    inside = _in_tower(view)
    if not inside:
        return now
    after = sum(_odds(view, attacker, defender, c, pennants) for c in inside) / len(inside)
    return max(now, after)


# --- moving ---------------------------------------------------------------------------
def _value(view: dict, seat: int, t: str) -> float:
    """What landing on territory t is worth to this seat, in Pennants, roughly."""
    me = _me(view, seat)
    square = view["board"][t]
    token = square["token"]
    if token is not None:
        if not token["up"]:
            return 2.0 if square["castle"] else 1.5
        kind, name = token["id"].split(":")
        if kind == "symbol":
            if name == me["wizard"]:
                return 3.0
            defender = _seat_of(view, name)
            p = _best_odds(view, seat, defender) if defender is not None else 0.5
            return 3.0 * p - 1.0
        if kind == "home":
            if name != me["character"]:
                return 0.0
            pen = square["pennants"]
            if pen is None:
                return 2.0 + pack().homes[name].pennants
            return 0.0 if pen["wizard"] == me["wizard"] else 2.0 + 2 * pen["count"]
        return 1.5  # a face-up spell that stays there: usable now only if it has targets
    pen = square["pennants"]
    if pen and pen["wizard"] != me["wizard"] and not square["protected"]:
        defender = _seat_of(view, pen["wizard"])
        assert defender is not None, "Pennants on the board are a seat's"
        p = _best_odds(view, seat, defender, pen["count"])  # his Pennants give him re-rolls
        return p * (pen["count"] + 1.0) - (1 - p) * 1.0
    return 0.0


def _near_unknown(view: dict, t: str) -> float:
    """A little pull towards territories beside face-down tokens, to keep exploring."""
    crossings = pack().crossings[t]
    return 0.1 * sum(1 for c in crossings if (view["board"][c.to]["token"] or {}).get("up") is False)


def _go(view: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
    best, best_value = legal[0], float("-inf")
    for action in legal:
        if action["kind"] == "pass":
            value = 0.0
        elif action["to"] == _me(view, seat)["at"]:
            # out and back: landing again where it stands does something only against another's Castle
            value = _value(view, seat, action["to"]) if view["board"][action["to"]]["token"] is None else -0.5
        else:
            t = action["to"]
            value = _value(view, seat, t) + _near_unknown(view, t)
        value += rng.random() * 0.05
        if value > best_value:
            best, best_value = action, value
    return best


# --- battle -----------------------------------------------------------------------------
RAMP_TOKEN = 1.5  # a Ramp token, in Pennants: Conquer a Castle and Power (2) are worth most, Protection less


def _lead(view: dict, seat: int) -> int:
    """This seat's Pennants on Castles less the best of the others'."""
    others = [_score(view, s) for s in range(len(view["players"])) if s != seat]
    return _score(view, seat) - max(others)


def climb_value(view: dict, seat: int) -> float:
    """What one more step of the Wizard King is worth to this seat when it moves him (by
    transforming), in Pennants: the Ramp token on that step, which it takes and uses; and the
    clock - a leader wants the game over, someone behind wants time. The last step ends the game
    after this battle, so a safe lead makes it worth more than anything the battle could bring."""
    lead = _lead(view, seat)
    nxt = view["king"] + 1
    if nxt > pack().ramp_steps:
        return 6.0 if lead >= 3 else 2.0 * max(-3, min(3, lead))
    token = RAMP_TOKEN if str(nxt) in view["ramp"] else 0.0
    return token + 0.12 * max(-5, min(5, lead))


def stakes(view: dict, battle: dict) -> tuple[float, float]:
    """(what winning is worth, what losing costs) the attacker, in Pennants against the defender:
    a win places his Pennant and, on a Castle, sends the defender's home; a loss adds one of his."""
    return 1.0 + _defended(view, battle), 1.0


def _ready(view: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
    """Fight as it is, or transform first ('If you ... don't like the difference in strength'):
    the battle's expected swing either way, the transformation's averaged over who may come out
    of the Tower, plus what moving the King brings (climb_value)."""
    battle = view["tasks"][-1]
    defender = battle["defender"]
    pennants = _defended(view, battle)
    win, loss = stakes(view, battle)
    now = _odds(view, seat, defender, pennants=pennants)
    inside = _in_tower(view)
    if not inside:
        return {"kind": "fight"}
    after = sum(_odds(view, seat, defender, c, pennants) for c in inside) / len(inside)
    fight = now * win - (1 - now) * loss
    change = after * win - (1 - after) * loss + climb_value(view, seat)
    if change > fight + 0.05:
        return rng.choice([a for a in legal if a["kind"] == "transform"])
    return {"kind": "fight"}


def _defend(view: dict, legal: list[dict]) -> dict:
    """Keep a winning roll; otherwise re-roll the choice with the best chance to win."""
    battle = view["tasks"][-1]
    a, d = battle["dice"]["attacker"], battle["dice"]["defender"]
    if winner(a, d) == "defender":
        return {"kind": "accept"}
    tries = battle["reroll"]["single"]  # times the one chosen die may still be re-rolled
    best, best_p = {"kind": "accept"}, 0.0
    for action in legal:
        if action["kind"] != "reroll":
            continue
        p = _hold_chance(a, d, action["dice"])
        if len(action["dice"]) == 1:
            p = 1 - (1 - p) ** max(tries, 1)
        if p > best_p + 1e-9:
            best, best_p = action, p
    return best


def _hold_chance(a: list[int], d: list[int], chosen: list[int]) -> float:
    """P(defender wins) after re-rolling the chosen dice once (exact, at most 6^4 rolls)."""
    wins = total = 0
    for faces in product(range(1, 7), repeat=len(chosen)):
        dice = list(d)
        for i, f in zip(chosen, faces):
            dice[i] = f
        wins += winner(a, dice) == "defender"
        total += 1
    return wins / total


# --- spells ---------------------------------------------------------------------------------
def _spell_value(view: dict, seat: int, action: dict) -> float:
    me = _me(view, seat)
    board = view["board"]
    kind = action["kind"]

    def pen(t: str) -> tuple[str | None, int]:
        p = board[t]["pennants"]
        return (p["wizard"], p["count"]) if p else (None, 0)

    if kind in ("protect", "power"):
        owner, n = pen(action["territory"])
        return n if owner == me["wizard"] else -n
    if kind == "conquer":
        owner, n = pen(action["territory"])
        holder = _seat_of(view, owner) if owner else None
        leader = _score(view, holder) if holder is not None else 0
        return n + 0.1 * leader
    if kind == "move_protection":
        src_owner, src_n = pen(action["from"])
        dst_owner, dst_n = pen(action["to"])
        gain = dst_n if dst_owner == me["wizard"] else -dst_n
        loss = src_n if src_owner == me["wizard"] else -src_n
        return gain - loss
    if kind == "transform_other":
        # the changed player moves the King and takes the Ramp token on the next step: give it to the weakest
        if str(view["king"] + 1) in view["ramp"]:
            return -_score(view, action["seat"])
        return _score(view, action["seat"])
    if kind == "reveal":
        return 1.0 if board[action["territory"]]["castle"] else 0.5
    return 0.0
