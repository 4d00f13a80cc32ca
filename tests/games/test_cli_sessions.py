"""The terminal client as a newcomer uses it: leaving a match and coming back to it, queueing
through matchmaking and playing the seat assigned, Ctrl-C without a traceback, and `verify`
on a match still being played."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

CLI = [sys.executable, "-m", "services.cli.main"]


def archmage(served, *args, answers: str = "", timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, "--addr", served.address, *args], input=answers, capture_output=True, text=True,
                          timeout=timeout, env=dict(os.environ))


def test_leaving_a_match_and_coming_back_to_it(served):
    """`q` leaves the match open and prints how to come back; `archmage play --match ID --seat-token T` plays the
    same seat on from where it stood, to the end, and `verify` says a running match has not ended yet."""
    left = archmage(served, "play", "tower", "--ai", "1", answers="0\n0\nq\n")
    assert left.returncode == 0, left.stderr[-2000:]
    back = re.search(r"archmage play --match (\S+) --seat-token (\S+)", left.stdout)
    assert "left the match; it waits for you" in left.stdout and back
    match_id, token = back.groups()
    running = archmage(served, "verify", match_id)
    assert running.returncode == 3 and running.stdout.startswith("NOT ENDED: ") and "TAMPERED" not in running.stdout
    done = archmage(served, "play", "--match", match_id, "--seat-token", token, answers="0\n" * 3000)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Match over. " in done.stdout and f"verify it: archmage verify {match_id}" in done.stdout
    ended = archmage(served, "verify", match_id)
    assert ended.returncode == 0 and ended.stdout.startswith("OK: ")


def test_queue_then_play_the_seat_assigned(served):
    """`archmage queue tower --ai-welcome --max-wait 0`: the ticket's states are shown while it waits, and once
    assigned the player plays the seat matchmaking gave them, against the AI that filled the match."""
    out = archmage(served, "queue", "tower", "--seats", "2", "--ai-welcome", "--max-wait", "0",
                   "--invite", f"cli-{os.getpid()}-{time.monotonic_ns()}", answers="0\n" * 3000)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "queued for tower (ticket " in out.stdout and "  assigned, waited " in out.stdout
    assert re.search(r"match \S+: you play seat \d with 0 other players and 1 AI", out.stdout)
    assert "Match over. " in out.stdout


def test_ctrl_c_at_a_prompt_leaves_without_a_traceback(served):
    """Ctrl-C while the client waits for a choice: no traceback, the match left open with the way back printed."""
    child = subprocess.Popen([*CLI, "--addr", served.address, "play", "tower", "--ai", "1"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ))
    os.set_blocking(child.stdout.fileno(), False)
    seen, deadline = b"", time.monotonic() + 120
    while b"your choice" not in seen:
        assert time.monotonic() < deadline and child.poll() is None, seen[-2000:]
        seen += child.stdout.read() or b""
        time.sleep(0.05)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    text = (seen + (out or b"")).decode()
    assert "Traceback" not in err.decode(), err.decode()[-2000:]
    assert "left the match; it waits for you" in text and "--seat-token" in text
