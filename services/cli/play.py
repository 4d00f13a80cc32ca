"""Terminal play and watching: `archmage play GAME` and `archmage watch MATCH_ID`."""
from __future__ import annotations

import json
import sys
import uuid

import grpc

from services.cli.choosing import RESIGN, Choice, Prompt, Screen, choices, choose
from services.client.reading import all_legal_actions, events_between
from services.client.session import signed_in


def _stubs(addr: str):
    from archmage.board.v1 import board_pb2_grpc
    from archmage.combat.v1 import combat_pb2_grpc
    from archmage.matchmaking.v1 import matchmaking_pb2_grpc

    from services.client import Client
    from services.core.config import Settings

    # a player's own credential (from Players.SignIn) in ARCHMAGE_TOKEN, or a guest made on the spot;
    # idempotent calls retried on UNAVAILABLE, TLS when TLS_CA_FILE is set
    client = Client(client_channel(addr), Settings.from_env().client_token)
    signed = signed_in(client.channel, client.token)  # the credential on every call, as Client.auth
    return (board_pb2_grpc.BoardStub(signed), combat_pb2_grpc.CombatStub(signed),
            matchmaking_pb2_grpc.MatchmakingStub(signed))


def client_channel(addr: str):
    """A channel to the platform: TLS when TLS_CA_FILE names the CA to trust."""
    from services.core.config import Settings
    from services.rpc import tls

    return tls.channel(addr, Settings.from_env())


def _renderer(game: str):
    """The game's terminal renderer (shared/engine/registry.py), or None: a game this client does
    not host, or one that registered none, is printed as JSON."""
    from shared.engine.registry import GAMES, renderer_for

    return renderer_for(game) if game in GAMES else None


PLATFORM_EVENTS = ("dice_committed", "match_created", "action", "resigned", "roll", "match_finished",
                   "dice_revealed", "client_seed")


def platform_line(type_: str, body: dict, game: str | None) -> str | None:
    """One line for an event the platform writes (the game's own events are drawn by its renderer)."""
    if body.get("redacted"):
        return None
    if type_ == "dice_committed":
        return f"dice committed: {body['commitment'][:16]}..."
    if type_ == "match_created":
        return f"{body['game']} match for {len(body['seats'])} seats, variant {body['config']['variant']}"
    if type_ == "action":
        return None  # the game's events say what the action did
    if type_ == "resigned":
        return f"seat {body['seat']} resigned"
    if type_ == "roll":
        pools = body["pools"]
        if body.get("secret") and any(r == "?" for p in pools for r in p["results"]):
            return f"{sum(len(p['results']) for p in pools)} dice rolled in secret (shown when the match ends)"
        if len(pools) > 4:
            return f"{sum(len(p['results']) for p in pools)} dice rolled for {pools[0]['purpose']} and more"
        return "dice: " + "; ".join(f"{p['purpose']}: {' '.join(str(r) for r in p['results'])}" for p in pools)
    if type_ == "match_finished":
        outcome = body.get("outcome") or {}
        return "match finished" + (f": {outcome['summary']}" if outcome.get("summary") else "")
    if type_ == "dice_revealed":
        return f"dice seed revealed: {body['seed'][:16]}... (check every roll: archmage verify <match id>)"
    if type_ == "client_seed":
        return f"client seed added: {body['seed']!r}"
    return None


def _print_events(render, events) -> None:
    game_bodies = []
    for e in events:
        body = json.loads(e.body_json)
        if e.type in PLATFORM_EVENTS:
            if game_bodies and render:
                for line in render.render_events(game_bodies):
                    print("  " + line)
                game_bodies = []
            line = platform_line(e.type, body, None)
            if e.type == "roll" and getattr(render, "ROLLS_SHOWN", False):
                line = None  # the game's own events show its rolls; print each roll once
            if line:
                print("  " + line)
        elif not body.get("redacted"):
            game_bodies.append(dict(body, type=e.type))
    lines = render.render_events(game_bodies) if render else [f"{b['type']}: {json.dumps(b)}" for b in game_bodies]
    for line in lines:
        print("  " + line)


def cmd_play(args) -> int:
    stubs = _stubs(args.addr)
    if args.match:
        if not args.seat_token:
            raise SystemExit("rejoining needs the seat token you were given: --seat-token")
        play_seat(stubs, args.match, args.seat_token)
        return 0
    if not args.game:
        raise SystemExit("which game? archmage play GAME (see archmage --help for the games)")
    if not args.campaign:
        play_match(stubs, args.game, args.variant or "", args.ai, args.options or "", time_control(args.clock),
                   args.level)
        return 0
    # a campaign: its games in order, each carrying the record the last one returned
    record = None
    while True:
        options = json.dumps({"campaign": record}) if record else ""
        outcome = play_match(stubs, args.game, "campaign", args.ai, options, level=args.level)
        if outcome is None:
            return 0  # left
        record = outcome.get("campaign")
        if not record or record.get("complete"):
            print("campaign over:", json.dumps(record or outcome))
            return 0
        print(f"on to game {record['game']} of the campaign")


def play_match(stubs, game: str, variant: str, ai: int, options_json: str, clock=None, level: str = "") -> dict | None:
    """Create a match with the player in seat 0 and `ai` AI seats at `level` (and `clock`, a
    TimeControl, if any), and play it to the end. Returns the outcome, or None if the player left."""
    from archmage.matchmaking.v1 import matchmaking_pb2

    seats = [matchmaking_pb2.SeatSpec(kind="human", name="you")] + [
        matchmaking_pb2.SeatSpec(kind="ai", name=f"AI {i + 1}", level=level) for i in range(ai)]
    created = stubs[2].CreateMatch(matchmaking_pb2.CreateMatchRequest(
        game=game, variant=variant, seats=seats, options_json=options_json, time_control=clock))
    print(f"match {created.match_id} created; dice commitment {created.dice_commitment[:16]}...")
    return play_seat(stubs, created.match_id, created.seat_tokens[0].token, [s.name for s in seats])


def time_control(text: str):
    """`--clock`: "" (none), "turn:S" or "turn:S+BANK" (seconds a turn, then a bank), "total:S";
    ",forfeit" at the end forfeits on timeout instead of a stand-in AI. The platform checks the values."""
    from archmage.common.v1 import common_pb2

    if not text:
        return None
    spec, _, after = text.partition(",")
    mode, _, amount = spec.partition(":")
    try:
        if mode == "turn":
            turn, _, bank = amount.partition("+")
            clock = common_pb2.TimeControl(mode="turn", turn_s=float(turn), bank_s=float(bank or 0))
        elif mode == "total":
            clock = common_pb2.TimeControl(mode="total", total_s=float(amount))
        else:
            raise ValueError(mode)
    except ValueError:
        raise SystemExit(f"--clock {text!r}: write turn:SECONDS[+BANK] or total:SECONDS, "
                         "then ,forfeit if wanted") from None
    if after not in ("", "forfeit", "ai"):
        raise SystemExit(f"--clock {text!r}: after the comma, forfeit or ai")
    clock.on_timeout = after or "ai"
    return clock


def clock_line(view, me: int) -> str | None:
    """Each seat's time as the view shows it (None for a match without a clock)."""
    if view.time_control.mode in ("", "none") or not view.clocks:
        return None

    def shown(ms: int) -> str:
        s = max(0, ms) // 1000
        return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"

    parts = []
    for c in view.clocks:
        who = "you" if c.seat == me else f"seat {c.seat}"
        state = " (AI plays it: out of time)" if c.stand_in else " (running)" if c.running else ""
        parts.append(f"{who} {shown(c.remaining_ms)}{state}")
    return "clocks: " + " · ".join(parts)


def seat_of(token: str) -> int:
    """A seat token reads "<match id>.<seat>.<secret>" (services/core/seats.py)."""
    parts = token.split(".")
    if len(parts) != 3 or not parts[1].isdigit():
        raise SystemExit("that is not a seat token: it reads <match id>.<seat>.<secret>")
    return int(parts[1])


def play_seat(stubs, match_id: str, token: str, names: list[str] | None = None) -> dict | None:
    """Play the seat `token` proves in match `match_id` until the match ends (its outcome) or
    the player leaves (None; the match waits for them, and how to come back is printed)."""
    from archmage.board.v1 import board_pb2

    board, combat, _ = stubs
    me = seat_of(token)
    meta = (("x-seat-token", token),)
    view = board.GetMatch(board_pb2.GetMatchRequest(match_id=match_id), metadata=meta)
    render = _renderer(view.game)
    screen = Screen(render)
    seen = 0
    try:
        while True:
            view = board.GetMatch(board_pb2.GetMatchRequest(match_id=match_id), metadata=meta)
            events = events_between(board, match_id, seen, view.last_seq, meta)
            if events:
                _print_events(render, events)
            seen = view.last_seq  # what the view shows; anything newer wakes _wait_for_change
            shown = json.loads(view.view_json)
            if view.status in ("cancelled", "abandoned"):
                print(f"The match was {view.status}" + (": nobody played in it for too long (ABANDON_AFTER_S)."
                                                         if view.status == "abandoned" else "."))
                print(f"verify it: archmage verify {match_id}")
                return {}
            if view.status == "finished":
                screen.draw(shown, me, whole=True)
                outcome = json.loads(view.outcome_json) if view.outcome_json else {}
                seat_names = names or [f"seat {i}" for i in range(len(outcome.get("scores") or []))]
                print(how_it_ended(outcome, me, seat_names))
                print(f"verify it: archmage verify {match_id}")
                return outcome
            if view.to_act != me:
                _wait_for_change(board, match_id, seen, meta)
                continue
            screen.draw(shown, me)
            clocks = clock_line(view, me)
            if clocks:
                print(clocks)
            version, actions = all_legal_actions(board, match_id, meta)
            ask = _asker(board, match_id, meta)
            picked = choose(choices(render, shown, me, actions, ask), Prompt(render, shown, me, screen))
            if picked is None:
                break
            if picked is RESIGN:
                if not _confirmed("resign this match? the other players play on without you, or win (yes/no): "):
                    continue
                try:
                    board.Resign(board_pb2.ResignRequest(match_id=match_id, action_id=str(uuid.uuid4()),
                                                         expected_version=version), metadata=meta)
                except grpc.RpcError as exc:
                    print(f"refused: {exc.details()}")
                    continue
                print("you resigned")
                if board.GetMatch(board_pb2.GetMatchRequest(match_id=match_id), metadata=meta).status != "finished":
                    print(f"the match goes on without you; follow it with: archmage watch {match_id}")
                    return None
                continue
            _send(board, combat, match_id, meta, version, picked)
    except KeyboardInterrupt:
        print()
    print(f"left the match; it waits for you. Come back with:\n  archmage play --match {match_id} --seat-token {token}")
    return None


def cmd_queue(args) -> int:
    """Queue through matchmaking, show the wait, and play the seat assigned."""
    from archmage.matchmaking.v1 import matchmaking_pb2 as mm

    stubs = _stubs(args.addr)
    queue = stubs[2]
    ticket = queue.CreateTicket(mm.CreateTicketRequest(game=args.game, variant=args.variant or "", seats=args.seats,
                                                       ai_welcome=args.ai_welcome, max_wait_s=args.max_wait,
                                                       invite_code=args.invite or ""))
    print(f"queued for {args.game} (ticket {ticket.ticket_id}); Ctrl-C leaves the queue")
    try:
        for t in queue.WatchTicket(mm.TicketRef(ticket_id=ticket.ticket_id)):
            print(f"  {t.state}, waited {t.waited_ms / 1000:.0f} s", flush=True)
            if t.state == "assigned":
                mine = next(s for s in t.assignment.seats if s.seat_token)
                print(f"match {t.assignment.match_id}: you play seat {mine.seat} "
                      f"with {len(t.assignment.seats) - 1} other players and {t.assignment.ai_seats} AI")
                play_seat(stubs, t.assignment.match_id, mine.seat_token)
                return 0
            if t.state in ("cancelled", "expired"):
                print(f"the ticket was {t.state}; nothing was played")
                return 1
    except KeyboardInterrupt:
        try:
            queue.CancelTicket(mm.TicketRef(ticket_id=ticket.ticket_id))
            print("\nleft the queue")
        except grpc.RpcError as exc:  # being matched already: the assignment stands
            print(f"\ncould not leave the queue: {exc.details()}")
        return 130
    return 1


def cmd_matches(args) -> int:
    """The player's newest matches (a guest made on the spot has none: sign in and set ARCHMAGE_TOKEN)."""
    from archmage.matchmaking.v1 import matchmaking_pb2 as mm

    from services.core.config import Settings

    if not Settings.from_env().client_token:
        raise SystemExit("listing your matches needs your own credential in ARCHMAGE_TOKEN (Players.SignIn)")
    mine = _stubs(args.addr)[2].ListMyMatches(mm.ListMyMatchesRequest(limit=args.limit)).matches
    for m in mine:
        print(f"{m.match_id}  {m.game:<10} {m.variant or 'standard':<12} {m.status:<9} "
              f"seat {', '.join(map(str, m.seats))}{'  rated' if m.rated else ''}")
    if not mine:
        print("no matches yet")
    return 0


def cmd_turns(args) -> int:
    """Follow the player's turn notices across all their matches, one line each, until Ctrl-C."""
    import datetime

    from services.client import Client
    from services.core.config import Settings

    token = Settings.from_env().client_token
    if not token:
        raise SystemExit("your turns need your own credential in ARCHMAGE_TOKEN (Players.SignIn)")
    client = Client(client_channel(args.addr), token)
    print("waiting for your turns (Ctrl-C to stop)...", flush=True)
    for n in client.turns(args.after, idle_s=args.idle or None):
        when = datetime.datetime.fromtimestamp(n.at_ms / 1000).strftime("%H:%M:%S")
        if n.kind == "your_turn":
            left = f", {max(0, n.deadline_ms - n.at_ms) / 1000:.0f}s on your clock" if n.deadline_ms else ""
            print(f"{when}  your turn in {n.game} match {n.match_id} (seat {n.seat}{left})  [{n.id}]", flush=True)
        else:
            print(f"{when}  {n.game} match {n.match_id} ended: archmage verify {n.match_id}  [{n.id}]", flush=True)
    return 0


def how_it_ended(outcome: dict, me: int, seat_names: list[str]) -> str:
    """One plain sentence for the player in seat `me`: who resigned, who won, or that nobody did, and the
    game's own words."""
    names = [("you" if i == me else (name or f"seat {i}")) for i, name in enumerate(seat_names)]
    resigned = [names[s] if s < len(names) else f"seat {s}" for s in outcome.get("resigned") or []]
    gave_up = ""
    if resigned:
        who = " and ".join(resigned)
        gave_up = f" {who[0].upper()}{who[1:]} resigned."
    winners = outcome.get("winners") or []
    if not winners:
        verdict = "Nobody won"
    elif me in winners:
        others = [names[w] for w in winners if w != me]
        verdict = "You won" + (f", with {' and '.join(others)}" if others else "")
    else:
        verdict = f"{' and '.join(names[w] for w in winners)} won; you did not"
    scores = outcome.get("scores") or []
    tally = ", ".join(f"{names[i]} {s}" for i, s in enumerate(scores) if i < len(names))
    summary = outcome.get("summary")
    return (f"Match over.{gave_up} {verdict}." + (f" {summary}." if summary else "")
            + (f" Scores: {tally}." if tally else ""))


def _confirmed(question: str) -> bool:
    try:
        return input(question).strip().lower() in ("y", "yes")
    except EOFError:
        return False


def _asker(board, match_id: str, meta):
    """Board.Query for this seat: the engine's answer to a question about the position."""
    from archmage.board.v1 import board_pb2

    def ask(query: dict) -> dict:
        reply = board.Query(board_pb2.QueryRequest(match_id=match_id, query_json=json.dumps(query)), metadata=meta,
                            timeout=10)
        return json.loads(reply.answer_json)

    return ask


def _send(board, combat, match_id: str, meta, version: int, picked: Choice) -> None:
    """Send a choice's actions in order. Each one after the first is sent only while it is still
    this seat's turn and the engine still offers it (a step may set something off that stops the way)."""
    from archmage.board.v1 import board_pb2
    from archmage.common.v1 import common_pb2

    me = seat_of(dict(meta)["x-seat-token"])
    for i, action in enumerate(picked.steps):
        if i:
            view = board.GetMatch(board_pb2.GetMatchRequest(match_id=match_id), metadata=meta)
            if view.status != "active" or view.to_act != me:
                return
            version, listed = all_legal_actions(board, match_id, meta)
            now = next((a for a in listed if json.loads(a.action_json) == action), None)
            if now is None:
                print(f"  stopped after {i} of {len(picked.steps)} steps: the next one is not open any more")
                return
            service = now.service
        else:
            service = picked.service
        request = common_pb2.ActRequest(match_id=match_id, action_id=str(uuid.uuid4()), expected_version=version,
                                        action_json=json.dumps(action))
        try:
            reply = (combat.Resolve if service == "combat" else board.Move)(request, metadata=meta)
        except grpc.RpcError as exc:
            print(f"refused: {exc.details()}")
            return
        version = getattr(reply, "version", version)


def _wait_for_change(board, match_id, seen, meta) -> None:
    from archmage.board.v1 import board_pb2

    stream = board.WatchMatch(board_pb2.WatchMatchRequest(match_id=match_id, from_seq=seen), metadata=meta,
                              timeout=30)
    try:
        for _ in stream:
            break
    except grpc.RpcError:
        pass
    finally:
        stream.cancel()


def cmd_watch(args) -> int:
    from archmage.board.v1 import board_pb2, board_pb2_grpc

    board = board_pb2_grpc.BoardStub(client_channel(args.addr))  # watching needs no player
    meta = (("x-seat-token", args.token),) if args.token else ()
    view = board.GetMatch(board_pb2.GetMatchRequest(match_id=args.match_id), metadata=meta)
    render = _renderer(view.game)
    for e in board.WatchMatch(board_pb2.WatchMatchRequest(match_id=args.match_id, from_seq=args.from_seq),
                              metadata=meta):
        print(f"#{e.seq} ", end="")
        _print_events(render, [e])
        sys.stdout.flush()
    print("match over")
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser("play", help="play a match in the terminal against AI seats, or rejoin one")
    p.add_argument("game", nargs="?", help="tower, incantris or wizards (see archmage --help)")
    p.add_argument("--match", default="", help="rejoin this match (with --seat-token)")
    p.add_argument("--seat-token", default="", help="the seat token you were given for the match")
    p.add_argument("--ai", type=int, default=1, help="how many AI opponents")
    p.add_argument("--level", default="", choices=["", "easy", "normal", "hard"],
                   help="the AI opponents' level (normal by default; `archmage --help` lists each game's)")
    p.add_argument("--variant", "--scenario", dest="variant", default="")
    p.add_argument("--options", default="", help="game options as a JSON object")
    p.add_argument("--clock", default="", help="a clock: turn:SECONDS[+BANK] or total:SECONDS, then ,forfeit to "
                                               "forfeit on timeout (default: an AI plays your seat until you act)")
    p.add_argument("--campaign", action="store_true",
                   help="play a campaign: its games in order, the record carried from each to the next")
    p.set_defaults(run=cmd_play)
    q = sub.add_parser("queue", help="queue through matchmaking, then play the seat assigned")
    q.add_argument("game")
    q.add_argument("--seats", type=int, default=0, help="the match size wanted (0: any the game allows)")
    q.add_argument("--variant", default="")
    q.add_argument("--ai-welcome", action="store_true", help="AI opponents may fill the match")
    q.add_argument("--max-wait", type=int, default=30, help="seconds before AI fills the rest (with --ai-welcome)")
    q.add_argument("--invite", default="", help="an invite code: only tickets with the same code meet")
    q.set_defaults(run=cmd_queue)
    m = sub.add_parser("matches", help="your newest matches (needs ARCHMAGE_TOKEN)")
    m.add_argument("--limit", type=int, default=20)
    m.set_defaults(run=cmd_matches)
    t = sub.add_parser("turns", help="your turns across all your matches, as they come (needs ARCHMAGE_TOKEN)")
    t.add_argument("--after", default="", help="resume after this notice id (the [id] a line ends with)")
    t.add_argument("--idle", type=float, default=0, help="stop after this many seconds without a notice")
    t.set_defaults(run=cmd_turns)
    w = sub.add_parser("watch", help="follow a match's events")
    w.add_argument("match_id")
    w.add_argument("--token", default="", help="a seat token, to see that seat's private events")
    w.add_argument("--from-seq", type=int, default=0)
    w.set_defaults(run=cmd_watch)
