"""What the launcher tells a person when a port is not what it should be: a metrics check that
reaches some other kind of server says so in words (not the bytes that server sent back), a
child's log with a hole of NULs still reads as its last lines, and the port blocks handed to a
test never overlap."""
from __future__ import annotations

from concurrent import futures

import grpc
import pytest

from services.runtime.launcher import ephemeral_range, free_ports, last_lines, readable, wait_http


def test_a_metrics_check_answered_by_a_grpc_server_says_so_in_words():
    server = grpc.server(futures.ThreadPoolExecutor(1))
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        with pytest.raises(RuntimeError) as failed:
            wait_http(f"http://127.0.0.1:{port}/metrics", timeout=1.5)
    finally:
        server.stop(None)
    message = str(failed.value)
    assert "does not speak HTTP" in message and "another server on that port" in message, message
    assert message == readable(message), repr(message)  # words only, no bytes of HTTP/2 frames


def test_the_last_lines_of_a_log_with_a_hole_of_nuls_are_its_words(tmp_path):
    """A log truncated while a stray process still writes to it has a hole of NULs before the
    stray's output: what is shown is the words, colour codes dropped, other characters kept."""
    log = tmp_path / "platform.log"
    log.write_bytes(b"\0" * 4096 + b"OSError: [Errno 98] Address already in use\n\x1b[31mred\x1b[0m\n"
                    + "caf\u00e9\u00a0ouvert\n".encode())
    assert last_lines(log).splitlines() == ["    OSError: [Errno 98] Address already in use", "    red",
                                            "    caf\u00e9\u00a0ouvert"]


@pytest.mark.parametrize("sizes", [(20, 1), (11, 1), (9, 4), (3, 5, 7)])
def test_port_blocks_never_overlap_and_lie_below_the_kernel_s_range(sizes):
    low, _ = ephemeral_range()
    for _ in range(20):
        blocks = sorted((first, first + size) for first, size in zip(free_ports(*sizes), sizes))
        assert all(end <= start for (_, end), (start, _) in zip(blocks, blocks[1:])), blocks
        assert blocks[-1][1] <= low or blocks[0][0] > low, blocks  # never ports the kernel hands out
