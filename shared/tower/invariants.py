"""What must hold in every state; check_invariants raises AssertionError on a break."""
from __future__ import annotations

from collections import Counter

from shared.tower.battle import final_battle_under_way
from shared.tower.pack import ROCKY, pack
from shared.tower.state import TowerState, wizard_of


def check(state: TowerState) -> None:
    p = pack()
    stage = state.stage
    assert stage in ("first", "removals", "choose", "sites", "secret", "play", "over"), stage
    players = state.players
    assert len(players) == state.seats
    chosen = [pl["wizard"] for pl in players if pl["wizard"] is not None]
    assert len(set(chosen)) == len(chosen) and not set(chosen) & set(state.removed["wizards"]), chosen
    assert len(state.removed["characters"]) <= 4 - state.seats and len(state.removed["wizards"]) <= 4 - state.seats
    if stage in ("sites", "secret"):
        assert len(chosen) == state.seats, "every seat has its Wizard before the tokens are placed"
    if stage not in ("play", "over"):
        return
    if stage == "over" and any(pl["character"] is None for pl in players):
        assert state.resigned and not state.tasks, "only a resignation ends a game before the deal"
        return
    # Characters: each one in exactly one place (a seat, the Tower, out of the game)
    chambers = state.tower["chambers"]
    inside = [c for c in chambers if c is not None]
    held = [pl["character"] for pl in players]
    everyone = held + inside + state.removed["characters"]
    assert Counter(everyone) == Counter(p.character_names), f"Characters lost or doubled: {everyone}"
    door_empty = chambers[state.tower["door"]] is None
    assert len(inside) == p.chambers - 1 and door_empty, "the empty chamber is at the door"
    # Wizards: each seat a distinct Wizard; absent ones are no seat's
    wizards = [pl["wizard"] for pl in players]
    assert len(set(wizards)) == len(wizards) and not set(wizards) & set(state.removed["wizards"])
    # positions: on the map, never two Characters on one territory
    spots = [pl["at"] for pl in players if pl["at"] != ROCKY]
    assert all(s in p.territories for s in spots), spots
    assert len(spots) == len(set(spots)), f"two Characters on one territory: {spots}"
    # Pennants: 25 per colour, in the supply or on Castles, one colour per Castle
    on_board: Counter[str] = Counter()
    protections = 0
    for t, sq in state.board.items():
        pen = sq["pennants"]
        if pen is not None:
            assert sq["castle"], f"Pennants on {t}, which has no Castle"
            assert pen["count"] >= 1 and pen["wizard"] in wizards, f"bad Pennants on {t}: {pen}"
            on_board[pen["wizard"]] += pen["count"]
        token = sq["token"]
        if token is not None:
            kind = token["id"].split(":")[0]
            assert kind in ("symbol", "home", "spell"), token
            assert (kind != "spell") == sq["castle"], f"{t}: castle tokens on Castles, spells elsewhere"
            assert kind != "home" or pen is None or token["up"], f"{t}: Pennants on a hidden Home Castle"
            assert kind != "symbol" or pen is None, f"{t}: Pennants under a Wizard symbol"
        if sq["protected"]:
            protections += 1
            assert sq["castle"] and not (token and token["up"] and token["id"].startswith("home:")), \
                f"{t}: Protection only beside a Castle that is not a Home Castle"
    assert protections <= p.map_spells["protection"]["count"] + 1, "more Protections than tokens"
    for pl in players:
        assert 0 <= pl["supply"] and pl["supply"] + on_board[wizard_of(pl)] == p.pennants, \
            f"{pl['wizard']}: Pennants not conserved"
    # Resigning: out of the game, a resigned seat flies no Pennants and its Mover is off the map
    assert len(set(state.resigned)) == len(state.resigned) and all(0 <= s < state.seats for s in state.resigned)
    for s in state.resigned:
        assert on_board[wizard_of(players[s])] == 0 and players[s]["at"] == ROCKY, f"seat {s} resigned but plays on"
    # the Ramp of Time
    king = state.king
    assert 0 <= king <= p.ramp_steps + 1
    assert state.ended == (king == p.ramp_steps + 1)
    assert all(int(step) > king and token is not None and token.startswith("ramp:")
               for step, token in state.ramp.items()), \
        "a Ramp token on a step the King has passed"
    assert 0 <= state.turn["quiet"] < p.king_patience * state.seats or stage == "over"
    if stage == "play":
        assert state.tasks and not state.ended or final_battle_under_way(state), "play goes on only with a task"
    else:
        assert not state.tasks
