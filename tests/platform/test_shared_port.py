"""Serving processes on one port (services/runtime/server.py `serve`): with reuse_port (the
launcher's --procs N > 1) a second server joins the port; without it a taken port is a
BindError naming the address, even though gRPC itself would set SO_REUSEPORT by default."""
from __future__ import annotations

import asyncio

import pytest

from services.runtime.launcher import free_port
from services.runtime.server import BindError, serve


def _two_servers(reuse_first: bool, reuse_second: bool):
    async def run():
        port = free_port()
        first = await serve([], "127.0.0.1", port, reuse_port=reuse_first)
        try:
            second = await serve([], "127.0.0.1", port, reuse_port=reuse_second)
            await second.server.stop(0)
            return first.port, second.port
        finally:
            await first.server.stop(0)
    return asyncio.run(run())


def test_reuse_port_lets_a_second_server_share_the_port():
    first, second = _two_servers(True, True)
    assert first == second


@pytest.mark.parametrize("reuse_first,reuse_second", [(False, False), (True, False), (False, True)])
def test_without_reuse_port_on_both_a_taken_port_is_a_bind_error(reuse_first, reuse_second):
    with pytest.raises(BindError, match="cannot listen on 127.0.0.1:.*already in use"):
        _two_servers(reuse_first, reuse_second)
