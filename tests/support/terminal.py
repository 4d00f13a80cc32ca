"""The `archmage` command in a pseudo-terminal, against a real platform server whose AI seats
are played by the AI's own turn (services/ai/tasks.py play_turn_once) in the server's threads,
as a Celery worker would play them."""
from __future__ import annotations

import fcntl
import logging
import os
import pty
import re
import shutil
import struct
import subprocess
import sys
import termios
from concurrent.futures import Future, ThreadPoolExecutor, wait
from pathlib import Path

import pexpect
from pexpect import fdpexpect

from services.ai.tasks import play_turn_once
from services.client import Client, Seat, channels
from services.core import ai_seats
from tests.support.server import ServerThread

ROOT = Path(__file__).resolve().parents[2]
PROMPT = re.compile(r"your choice \(0-(\d+)[^)]*\): ")
log = logging.getLogger("tests.terminal")


class ThreadTurns:
    """A TurnNotifier that plays each due AI turn on threads of its own (never the loop's default
    executor, which the server's handlers use), so an AI turn calling the server cannot wait on it."""

    def __init__(self):
        self.server: ServerThread | None = None
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="ai-turn")
        self.running: set[Future] = set()
        self.client: Client | None = None

    async def ai_turn(self, match_id: str, seat: int, version: int, token: str | None) -> None:
        server = self.server
        key = await server.platform.matches.ai_key()
        token = token or ai_seats.derive(key, match_id, seat)
        if self.client is None:  # one client for every turn, as a worker holds one (services/ai/tasks.py)
            self.client = Client(channels.channel(server.address), sign_in=False)
        future = self.pool.submit(play_turn_once, Seat(self.client, match_id, token, seat), version)
        self.running.add(future)
        future.add_done_callback(self._done)

    def _done(self, future: Future) -> None:
        self.running.discard(future)
        if not future.cancelled() and future.exception():
            log.warning("AI turn failed: %r", future.exception())

    def stop(self, timeout: float = 30) -> None:
        """Let the turns under way finish (each call has its own timeout), then end the threads."""
        wait(list(self.running), timeout=timeout)
        self.pool.shutdown(wait=False, cancel_futures=True)


class AiServer(ServerThread):
    """A ServerThread whose AI seats ThreadTurns plays; stop() ends the AI turns first."""

    def __init__(self, redis_url: str, **overrides):
        self.turns = ThreadTurns()
        super().__init__(redis_url, notifier=self.turns, **overrides)
        self.turns.server = self

    def stop(self) -> None:
        self.turns.stop()
        super().stop()


def ai_server(redis_url: str, **overrides) -> AiServer:
    server = AiServer(redis_url, **overrides)
    server.start()
    return server


def archmage_command() -> str:
    """The installed `archmage` script beside this Python, else the one on PATH."""
    beside = Path(sys.executable).parent / "archmage"
    found = str(beside) if beside.exists() else shutil.which("archmage")
    assert found, "the archmage command is not installed (pip install -e .)"
    return found


class Terminal:
    """One `archmage` run in a pseudo-terminal; every wait has a timeout, and a failure shows
    what the command printed. The command is started with subprocess on a pty of its own, never
    by forking this process, whose gRPC threads a fork would copy."""

    def __init__(self, args: list[str], address: str, env: dict | None = None, timeout: float = 60):
        path = os.pathsep.join([str(ROOT), str(ROOT / "build" / "proto"), os.environ.get("PYTHONPATH", "")])
        environ = {**os.environ, "ARCHMAGE_ADDR": address, "PYTHONPATH": path, "TERM": "dumb",
                   "PYTHONUNBUFFERED": "1", **(env or {})}
        environ.pop("ARCHMAGE_TOKEN", None)
        self.transcript: list[str] = []
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 200, 0, 0))
        self.proc = subprocess.Popen([archmage_command(), *args], stdin=slave, stdout=slave, stderr=slave, env=environ,
                                     start_new_session=True, close_fds=True)
        os.close(slave)
        self.child = fdpexpect.fdspawn(master, encoding="utf-8", timeout=timeout, codec_errors="replace")
        self.child.logfile_read = self  # every byte read is kept for the failure message

    # pexpect writes what it reads here
    def write(self, text: str) -> None:
        self.transcript.append(text)

    def flush(self) -> None:
        pass

    def output(self, last: int = 12000) -> str:
        return "".join(self.transcript)[-last:]

    def expect(self, patterns, timeout: float = -1) -> int:
        """pexpect's expect; timeout -1 is the terminal's own (never None, which would wait for ever)."""
        try:
            return self.child.expect(patterns, timeout=timeout)
        except (pexpect.TIMEOUT, pexpect.EOF) as exc:
            raise AssertionError(f"waiting for {patterns!r}: {type(exc).__name__}; the terminal showed:\n"
                                 f"{self.output()}") from None

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def play(self, answer=lambda n, text: "0", done=r"Match over\.", limit: int = 5000,
             timeout: float = 60) -> str:
        """Answer every prompt with answer(highest number offered, the text since the last prompt)
        until `done` is printed; returns the text of the last stretch."""
        for _ in range(limit):
            which = self.expect([PROMPT, done], timeout=timeout)
            if which == 1:
                return self.child.before
            self.send(answer(int(self.child.match.group(1)), self.child.before))
        raise AssertionError(f"no end after {limit} prompts; the terminal showed:\n{self.output()}")

    def close(self) -> int | None:
        """Wait for the command to end (after reading all it printed); its exit status."""
        try:
            self.child.expect(pexpect.EOF, timeout=30)
        except pexpect.TIMEOUT:
            raise AssertionError(f"the command did not end; the terminal showed:\n{self.output()}") from None
        finally:
            self.child.close()
        return self.proc.wait(timeout=30)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)
        if self.child.child_fd != -1:
            self.child.close()
