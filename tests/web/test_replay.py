"""A finished match's replay (services/web/replay.py) over plain HTTP against a real platform:
anyone, signed in or not, gets the whole log, the spectator's view after every step as the
engine rebuilds it, and the platform's verdict on the dice; a running match is refused and
nothing of it is told."""
from __future__ import annotations

import hashlib
import json
import random

import grpc
import pytest
from starlette.testclient import TestClient

from services.client import Client
from shared.engine.registry import engine_for
from shared.eventlog import LoggedEvent
from shared.matchlog import replay_events


@pytest.fixture(scope="module")
def client(platform):
    return Client(grpc.insecure_channel(platform.address))


def play_to_the_end(first_seat, seed: int, max_steps: int = 2000) -> None:
    """Every seat of the match played at random from here, each with its own seat token."""
    rng = random.Random(seed)
    for _ in range(max_steps):
        match = first_seat.match()
        if match.status != "active":
            return
        seat = first_seat.seats[match.to_act]
        actions = seat.legal_actions()
        seat.act(rng.choice(actions), expected_version=seat.version)
    raise AssertionError(f"the match did not end in {max_steps} actions")


@pytest.fixture(scope="module")
def finished_tower(client):
    first = client.create_match("tower", humans=2, options={"setup": "chance"})
    play_to_the_end(first, seed=11)
    assert first.match().status == "finished"
    return first


def test_a_finished_tower_match_replays_step_by_step_with_the_engines_spectator_views(app, finished_tower):
    reply = TestClient(app).get(f"/api/replay/{finished_tower.match_id}")  # no session: anyone may
    assert reply.status_code == 200, reply.text
    assert reply.headers["content-encoding"] == "gzip"  # about a megabyte of views, a twentieth of it sent
    data = reply.json()
    plain = TestClient(app).get(f"/api/replay/{finished_tower.match_id}", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.json() == data
    spectator = finished_tower.client.spectate(finished_tower.match_id)
    log = list(spectator.events(follow=False))
    assert [(e["seq"], e["type"], e["body"]) for e in data["events"]] == [
        (e.seq, e.type, json.loads(e.body_json)) for e in log]
    logged = [LoggedEvent(e.seq, e.type, e.body_json, e.prev_hash, e.hash, e.salt) for e in log]
    engine = engine_for("tower")
    applied = [e for e in logged if e.type in ("match_created", "action", "resigned", "roll")]
    steps = data["steps"]
    assert [s["seq"] for s in steps] == [e.seq for e in applied]  # a step for each action, roll, resignation
    assert sum(s["type"] == "action" for s in steps) > 20 and sum(s["type"] == "roll" for s in steps) > 5
    for step in steps:
        state = replay_events(engine, [e for e in logged if e.seq <= step["seq"]])
        assert step["view"] == json.loads(json.dumps(engine.view(state, None))), step["index"]
        assert step["first_seq"] <= step["seq"] <= step["last_seq"]
    # the steps share out the whole log, in order, each event once
    assert steps[0]["first_seq"] == 1 and steps[-1]["last_seq"] == log[-1].seq
    assert all(a["last_seq"] + 1 == b["first_seq"] for a, b in zip(steps, steps[1:]))
    # the last step is the match as the platform shows it; each action says what the seat did
    assert steps[-1]["view"] == json.loads(spectator.match().view_json) and data["rebuilt"] is True
    assert steps[-1]["view"]["stage"] == "over" and data["outcome"]["winners"]
    action = next(s for s in steps if s["type"] == "action")
    assert action["text"].startswith(f"seat {action['seat']}: ") and len(action["text"]) > len("seat 0: ")
    dice = data["dice"]
    assert dice["ok"] is True and dice["chain_ok"] is True and dice["revealed"] is True and dice["problems"] == []
    assert dice["rolls_checked"] == sum(len(p["nonces"]) for e in data["events"] if e["type"] == "roll"
                                        for p in e["body"]["pools"]) > 0
    assert dice["events_checked"] == len(log) and dice["head_seq"] == log[-1].seq
    assert hashlib.sha256(bytes.fromhex(dice["seed"])).hexdigest() == dice["commitment"] == dice["published"]
    assert "commitment" in dice["checked"] and "HMAC-SHA256" in dice["checked"]


def views_replayed(game: str, data: dict) -> None:
    """Each step's view is the engine's spectator view of the log replayed up to that step."""
    engine = engine_for(game)
    logged = [LoggedEvent(e["seq"], e["type"], json.dumps(e["body"]), "", "") for e in data["events"]]
    for step in data["steps"]:
        state = replay_events(engine, [e for e in logged if e.seq <= step["seq"]])
        assert step["view"] == json.loads(json.dumps(engine.view(state, None))), (game, step["index"])


@pytest.mark.parametrize("game,variant", [("incantris", ""), ("wizards", ""), ("race", "secret-start")])
def test_a_match_of_any_game_ended_by_a_resignation_replays_and_verifies(app, client, game, variant):
    first = client.create_match(game, humans=2, variant=variant)
    rng = random.Random(5)
    for _ in range(12):
        match = first.match()
        if match.status != "active":
            break
        seat = first.seats[match.to_act]
        seat.act(rng.choice(seat.legal_actions()), expected_version=seat.version)
    if first.match().status == "active":
        first.seats[1].resign()
    data = TestClient(app).get(f"/api/replay/{first.match_id}").json()
    assert data["status"] == "finished" and data["rebuilt"] is True and data["dice"]["ok"] is True, data.get("error")
    assert data["replay_problem"] is None
    assert sum(s["type"] == "action" for s in data["steps"]) >= 3
    views_replayed(game, data)
    if game == "incantris":  # the arena its tiles make, for the board
        assert all(len(s["arena"]) > 100 for s in data["steps"] if s["view"].get("tiles"))
    if game == "wizards":  # what the page draws of the islands at each step, from its parts
        from services.web.platform import wizards_world

        for step in data["steps"]:
            world = {key: data["parts"][i] for key, i in step["world"].items()}
            assert world == json.loads(json.dumps(wizards_world(step["view"]))), step["index"]
        assert len(data["parts"]) < sum(len(s["world"]) for s in data["steps"])  # shared, not repeated
    if game == "race":  # a private event's body is shown once the match is over
        assert not any(e["body"].get("redacted") for e in data["events"])
        assert any("visible_to" in e["body"] for e in data["events"])
        assert any(e["body"].get("secret") and "?" not in e["body"]["pools"][0]["results"] for e in data["events"]
                   if e["type"] == "roll")


def test_a_finished_match_whose_log_was_edited_in_redis_reads_not_verified_with_the_problem(app, client, redis_url):
    """The verdict is the platform's Dice.Verify on the stored log, not the web's say-so: a die's
    face changed in Redis after the end is reported, and the page is told so."""
    import redis

    from services.core.store import log_key

    first = client.create_match("race", humans=1)
    play_to_the_end(first, seed=2)
    r = redis.Redis.from_url(redis_url)
    key = log_key(first.match_id)
    entries = r.xrange(key)
    at, data = next((i, d) for i, d in entries if d[b"type"] == b"roll")
    body = json.loads(data[b"body"])
    body["pools"][0]["results"][0] = body["pools"][0]["results"][0] % 6 + 1
    r.delete(key)
    for entry_id, fields in entries:
        if entry_id == at:
            fields[b"body"] = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
        r.xadd(key, fields, id=entry_id)
    reply = TestClient(app).get(f"/api/replay/{first.match_id}")
    assert reply.status_code == 200, reply.text  # the verdict is given even when the edited log no longer replays
    data = reply.json()
    dice = data["dice"]
    assert dice["ok"] is False and dice["problems"] and any("edited" in p for p in dice["problems"]), dice
    # the changed face leads the rules elsewhere: the rebuilt match is not the platform's, or stops
    assert data["rebuilt"] is False
    assert data["replay_problem"] is None or data["replay_problem"].startswith("the log does not replay")


def test_a_log_that_stops_replaying_gives_the_steps_before_and_says_where(client):
    """An action the rules refuse (an edited log) ends the rebuilt steps there, with why."""
    from services.web.replay import rebuild

    first = client.create_match("race", humans=1)
    play_to_the_end(first, seed=3)
    log = [LoggedEvent(e.seq, e.type, e.body_json, e.prev_hash, e.hash, e.salt)
           for e in client.spectate(first.match_id).events(follow=False)]
    whole, _, _, problem = rebuild("race", log)
    assert problem is None
    second = [e for e in log if e.type == "action"][1]
    body = {**json.loads(second.body_json), "action": {"kind": "fly"}}
    edited = [LoggedEvent(e.seq, e.type, json.dumps(body), e.prev_hash, e.hash) if e is second else e for e in log]
    steps, _, _, problem = rebuild("race", edited)
    assert [(s["seq"], s["view"]) for s in steps] == [(s["seq"], s["view"]) for s in whole[:len(steps)]]
    assert steps[-1]["seq"] < second.seq == whole[len(steps)]["seq"]  # up to the edited action, not past it
    assert problem.startswith(f"the log does not replay through the race rules after event {steps[-1]['seq']}: ")


def test_a_running_matchs_replay_is_refused_and_nothing_of_it_is_told(app, client):
    running = client.create_match("tower", humans=2, options={"setup": "chance"})
    log = list(client.spectate(running.match_id).events(follow=False))
    assert any(e.type == "roll" and json.loads(e.body_json).get("secret") for e in log)
    # its log holds secret draws while it runs: none of them, nor anything else, is answered
    for web in (TestClient(app), TestClient(app)):
        reply = web.get(f"/api/replay/{running.match_id}")
        assert reply.status_code == 409
        assert reply.json() == {"error": f"the match is still being played: watch it live at /match/{running.match_id}"}
    assert running.match().status == "active"
    assert TestClient(app).get("/api/replay/no such match").status_code == 404
    missing = TestClient(app).get("/api/replay/0000000000000000")
    assert missing.status_code == 404 and missing.json()["error"]


def test_the_replay_page_is_served_to_anyone_with_its_module(app):
    web = TestClient(app)
    assert "replay.js" in web.get("/replay/anything").text
    module = web.get("/static/replay.js")
    assert module.status_code == 200 and "javascript" in module.headers["content-type"]
    assert "http://" not in module.text.replace("http://www.w3.org/2000/svg", "")


def test_the_clients_events_without_following_are_the_whole_log_so_far(client):
    """Seat.events(follow=False), which the tests above read the log with, gives every event up
    to the newest one now, not only the first (its own GetMatch moves the seat's last_seq)."""
    running = client.create_match("tower", humans=2, options={"setup": "chance"})
    spectator = client.spectate(running.match_id)
    last = spectator.match().last_seq
    assert last > 3 and [e.seq for e in spectator.events(follow=False)] == list(range(1, last + 1))
