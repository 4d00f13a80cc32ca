"""The baseline: a bare grpc.aio unary echo of a small message, server and client in
separate processes, a fixed number of calls in flight. Everything the platform does on
top of one gRPC call is measured against this.

    python -m bench.echo serve PORT
    python -m bench.echo load ADDR SECONDS INFLIGHT      (prints one JSON line)
"""
from __future__ import annotations

import asyncio
import json
import sys

import grpc

from bench.stats import percentiles

METHOD = "/bench.Echo/Echo"
MESSAGE = b"x" * 64


def _same(data: bytes) -> bytes:
    return data


async def serve(port: int) -> None:
    async def echo(request: bytes, context) -> bytes:
        return request

    handler = grpc.method_handlers_generic_handler("bench.Echo", {
        "Echo": grpc.unary_unary_rpc_method_handler(echo, request_deserializer=_same, response_serializer=_same)})
    server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
    server.add_generic_rpc_handlers((handler,))
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    print("serving", flush=True)
    await server.wait_for_termination()


async def closed_loop(call, seconds: float, inflight: int, warmup: float = 1.0) -> dict:
    """Run `call()` from `inflight` concurrent loops; latencies after the warm-up only."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    measure_from = start + warmup
    end = measure_from + seconds
    latencies: list[float] = []
    errors: dict[str, int] = {}

    async def worker() -> None:
        while True:
            t0 = loop.time()
            if t0 >= end:
                return
            try:
                await call()
            except grpc.aio.AioRpcError as exc:
                errors[exc.code().name] = errors.get(exc.code().name, 0) + 1
                continue
            if t0 >= measure_from:
                latencies.append(loop.time() - t0)

    await asyncio.gather(*(worker() for _ in range(inflight)))
    return summary(latencies, seconds, errors)


def summary(latencies: list[float], seconds: float, errors: dict | None = None) -> dict:
    p50, p99 = percentiles(latencies, 50, 99)
    return {"calls": len(latencies), "rps": len(latencies) / seconds, "p50_ms": p50 * 1000, "p99_ms": p99 * 1000,
            "errors": errors or {}}


async def load(addr: str, seconds: float, inflight: int) -> dict:
    async with grpc.aio.insecure_channel(addr) as channel:
        echo = channel.unary_unary(METHOD, request_serializer=_same, response_deserializer=_same)
        await echo(MESSAGE)
        return await closed_loop(lambda: echo(MESSAGE), seconds, inflight)


def main(argv: list[str]) -> None:
    if argv[0] == "serve":
        asyncio.run(serve(int(argv[1])))
    else:
        print(json.dumps(asyncio.run(load(argv[1], float(argv[2]), int(argv[3])))), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
