"""A gRPC server stream followed on a worker thread for a page's socket (the client is
blocking): what arrives is handed to the socket's asyncio queue, the stream is opened again
after a retryable failure, and stop() ends it, a stream being opened at that moment too."""
from __future__ import annotations

import asyncio
import threading
import time

import grpc

from services.client.client import RETRYABLE


class StreamFollower:
    """Subclasses say how to open the stream (`open`), what to do with each item (`got`) and
    when the server ends it (`ended`); a failure that is not retryable is handed on as is."""

    RETRY_S = 0.2

    def __init__(self, loop: asyncio.AbstractEventLoop, queue: asyncio.Queue, name: str):
        self.loop, self.queue = loop, queue
        self.stopped = threading.Event()
        self.stream = None
        self.thread = threading.Thread(target=self.run, daemon=True, name=name)

    def open(self):
        raise NotImplementedError

    def got(self, item) -> None:
        raise NotImplementedError

    def ended(self) -> None:
        """The server ended the stream."""

    def wrap(self, item):
        """What the queue gets for an item (or a failure)."""
        return item

    def run(self) -> None:
        while not self.stopped.is_set():
            stream = self.open()
            self.stream = stream
            if self.stopped.is_set():  # stopped while the call was being made: nobody cancels it after this
                stream.cancel()
                return
            try:
                for item in stream:
                    self.got(item)
                self.ended()
                return
            except grpc.RpcError as exc:
                if self.stopped.is_set():
                    return
                if exc.code() not in RETRYABLE:
                    self.hand(exc)
                    return
                time.sleep(self.RETRY_S)

    def hand(self, item) -> None:
        if self.stopped.is_set():
            return
        try:
            self.loop.call_soon_threadsafe(self.queue.put_nowait, self.wrap(item))
        except RuntimeError:  # the page's loop is gone: nobody to tell
            self.stop()

    def start(self) -> "StreamFollower":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopped.set()
        if self.stream is not None:
            self.stream.cancel()


CLOSED = object()  # what next_or_closed gives once the page went away


async def next_or_closed(queue: asyncio.Queue, closed: asyncio.Future):
    """The queue's next item, or CLOSED as soon as the page's socket is (`closed`: its receive())."""
    got = asyncio.ensure_future(queue.get())
    done, _ = await asyncio.wait({got, closed}, return_when=asyncio.FIRST_COMPLETED)
    if closed in done:
        got.cancel()
        return CLOSED
    return got.result()
