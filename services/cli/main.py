"""The `archmage` command line.

    archmage dice new                       open a dice session (prints id, commitment, token)
    archmage dice roll ID TOKEN 3d6 2d8     roll pools of dice, recorded in the session's log
    archmage dice reveal ID TOKEN           reveal the seed
    archmage dice export ID [-o FILE]       the log as JSON
    archmage verify ID | --file FILE        check the hash chain (any time) and every roll (once ended)
    archmage play GAME [--ai N]             play a match in the terminal against AI seats
    archmage play --match ID --seat-token T rejoin a match you left, in your seat
    archmage queue GAME [--seats N]         queue through matchmaking, then play the seat assigned
    archmage matches                        your newest matches (needs ARCHMAGE_TOKEN)
    archmage watch MATCH_ID                 follow a match's events

Addresses come from ARCHMAGE_ADDR (default 127.0.0.1:50051) or --addr; with TLS_CA_FILE set
the CLI speaks TLS and trusts that CA; ARCHMAGE_TOKEN plays as your own player.
"""
from __future__ import annotations

import argparse
import json
import re
import sys

import grpc

from services.client.reading import whole_dice_log
from shared import dicelog
from shared.eventlog import LoggedEvent


def _default_addr() -> str:
    """ARCHMAGE_ADDR, read like every setting (services/core/config.py)."""
    from services.core.config import ConfigError, Settings

    try:
        return Settings.from_env().client_addr
    except ConfigError as exc:
        raise SystemExit(f"configuration error: {exc}") from None


def _dice(addr: str):
    from archmage.dice.v1 import dice_pb2, dice_pb2_grpc

    from services.cli.play import client_channel

    return dice_pb2, dice_pb2_grpc.DiceStub(client_channel(addr))


def parse_pool(text: str):
    """'3d6' -> 3 six-sided dice; 'd8' -> one; '2x[a,b,c]' -> 2 dice with custom faces."""
    m = re.fullmatch(r"(\d*)d(\d+)", text)
    if m:
        return int(m.group(1) or 1), int(m.group(2)), []
    m = re.fullmatch(r"(\d*)x\[(.+)\]", text)
    if m:
        return int(m.group(1) or 1), 0, m.group(2).split(",")
    raise SystemExit(f"cannot read the pool {text!r}: write 3d6, d8 or 2x[wand,ward,blank]")


def cmd_dice(args) -> int:
    pb, stub = _dice(args.addr)
    if args.action == "new":
        s = stub.CreateSession(pb.CreateSessionRequest(session_id=args.id or ""))
        print(json.dumps({"session_id": s.session_id, "commitment": s.commitment, "token": s.token}, indent=2))
    elif args.action == "roll":
        pools = []
        for text in args.pools:
            count, sides, faces = parse_pool(text)
            pools.append(pb.Pool(purpose=text, count=count, sides=sides, faces=faces))
        reply = stub.Roll(pb.RollRequest(session_id=args.id, token=args.token, pools=pools))
        for r in reply.results:
            print(f"{r.purpose}: {' '.join(r.faces)}   (nonces {r.nonces[0]}..{r.nonces[-1]})")
    elif args.action == "reveal":
        s = stub.Reveal(pb.RevealRequest(session_id=args.id, token=args.token))
        print(json.dumps({"session_id": s.session_id, "commitment": s.commitment, "seed": s.seed}, indent=2))
    elif args.action == "export":
        commitment, events = whole_dice_log(stub, args.id)
        data = {"session_id": args.id, "commitment": commitment, "events": [_logged(e).to_dict() for e in events]}
        text = json.dumps(data, indent=1)
        if args.output:
            with open(args.output, "w") as fh:
                fh.write(text + "\n")
        else:
            print(text)
    return 0


def _logged(e) -> LoggedEvent:
    return LoggedEvent(e.seq, e.type, e.body_json, e.prev_hash, e.hash, e.salt)


def cmd_verify(args) -> int:
    """Exit 0: the whole log is sound, dice included; 1: tampered; 3: the chain is sound up to its
    head but the seed is not revealed yet, so the dice cannot be checked."""
    if args.file:
        with open(args.file) as fh:
            data = json.load(fh)
        session_id, commitment = data["session_id"], data["commitment"]
        events = [LoggedEvent.from_dict(e) for e in data["events"]]
    else:
        if not args.id:
            raise SystemExit("verify needs a session or match id, or --file")
        pb, stub = _dice(args.addr)
        commitment, logged = whole_dice_log(stub, args.id)
        session_id, events = args.id, [_logged(e) for e in logged]
    commitment = args.commitment or commitment
    verdict = dicelog.verify(session_id, commitment, events)
    if not verdict.chain_ok:
        for problem in verdict.problems:
            print(f"FAIL {problem}")
        print(f"TAMPERED: {verdict.events_checked} events checked against commitment {commitment[:16]}...")
        return 1
    sealed = (f"; {verdict.sealed_checked} private events checked through their commitments"
              if verdict.sealed_checked else "")
    if not verdict.revealed:
        print(f"NOT ENDED: {session_id} is still being played. Its hash chain is intact up to its head, event "
              f"{verdict.head_seq} ({verdict.head[:16]}...){sealed}, and the dice commitment is the published one "
              f"{commitment[:16]}.... The dice themselves can be checked only once the match ends and its seed "
              f"is revealed: verify it again then.")
        if verdict.unchecked:
            print(f"  events {verdict.unchecked} are hidden from you and were logged before private events were "
                  f"sealed (chain version 1): their contents can be checked only after the end")
        return 3
    opened = f", {verdict.sealed_opened} private events opened and checked" if verdict.sealed_opened else ""
    print(f"OK: {verdict.events_checked} events, {verdict.rolls_checked} dice{opened} checked against commitment "
          f"{commitment[:16]}...")
    return 0


def games_help() -> str:
    """The games this client knows, with their seats and variants, for --help."""
    from shared.engine.registry import engine_for, game_names, levels_for

    lines = ["games:"]
    for name in game_names():
        e = engine_for(name)
        lines.append(f"  {name:<10} {e.title}: {e.min_seats}-{e.max_seats} seats; variants {', '.join(e.variants)};"
                     f" AI levels {', '.join(levels_for(name))}")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="archmage", description="Archmage game platform client", epilog=games_help(),
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    default_addr = _default_addr()
    p.add_argument("--addr", default=default_addr,
                   help=f"the platform's gRPC address (ARCHMAGE_ADDR; now {default_addr}; `make run` serves "
                        f"127.0.0.1:50051 unless ARCHMAGE_PORT says otherwise)")
    sub = p.add_subparsers(dest="command", required=True)

    d = sub.add_parser("dice", help="provably fair dice sessions")
    d.add_argument("action", choices=["new", "roll", "reveal", "export"])
    d.add_argument("id", nargs="?", default="")
    d.add_argument("token", nargs="?", default="")
    d.add_argument("pools", nargs="*", help="3d6 2d8 x[a,b]")
    d.add_argument("-o", "--output")
    d.set_defaults(run=cmd_dice)

    v = sub.add_parser("verify", help="check a session or match: its chain up to its head; every roll once ended")
    v.add_argument("id", nargs="?")
    v.add_argument("--file", help="an exported log instead of asking the platform")
    v.add_argument("--commitment", help="the commitment you were shown, if not the log's own")
    v.set_defaults(run=cmd_verify)

    from services.cli import play

    play.add_commands(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except grpc.RpcError as exc:
        print(f"error: {exc.code().name}: {exc.details()}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
