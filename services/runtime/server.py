"""Binds services to a grpc.aio server: registration with safe request decoding,
the edge interceptors, standard health checking and reflection (v1 and v1alpha), graceful stop.

The same code serves one service per process (split mode) or all four in one
process (the embedded default); `build_server(["dice", "board", ...])` decides.
"""
from __future__ import annotations

import asyncio
import faulthandler
import logging
import signal
from dataclasses import dataclass, field

import grpc
from google.protobuf import message_factory
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer

from services.rpc.edge import (
    ErrorInterceptor,
    MetricsInterceptor,
    QuotaInterceptor,
    SeatInterceptor,
    safe_deserializer,
)
from services.rpc.tls import warn_if_plaintext
from services.runtime import reflection

log = logging.getLogger("archmage.server")


class BindError(OSError):
    """The server's address cannot be bound."""


def generic_handler(service_descriptor, servicer) -> grpc.GenericRpcHandler:
    """Handlers for every method of `service_descriptor`, implemented by `servicer`."""
    handlers = {}
    for method in service_descriptor.methods:
        request_cls = message_factory.GetMessageClass(method.input_type)
        response_cls = message_factory.GetMessageClass(method.output_type)
        behavior = getattr(servicer, method.name)
        make = grpc.unary_stream_rpc_method_handler if method.server_streaming else grpc.unary_unary_rpc_method_handler
        handlers[method.name] = make(behavior, request_deserializer=safe_deserializer(request_cls),
                                     response_serializer=response_cls.SerializeToString)
    return grpc.method_handlers_generic_handler(service_descriptor.full_name, handlers)


@dataclass
class Mounted:
    """A running server and what it serves."""

    server: grpc.aio.Server
    port: int
    health: HealthServicer
    names: list[str] = field(default_factory=list)

    async def drain(self) -> None:
        """Health says NOT_SERVING for every service; calls are still answered."""
        for name in self.names + [""]:
            await self.health.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)

    async def stop(self, grace: float = 5.0, drain_s: float = 0.0) -> None:
        """Graceful stop: NOT_SERVING first and still answering for `drain_s` seconds (load
        balancers and clients move away meanwhile), then no new calls and in-flight calls
        get `grace` seconds."""
        await self.drain()
        if drain_s > 0:
            log.info("draining for %.1fs: NOT_SERVING, still answering", drain_s)
            await asyncio.sleep(drain_s)
        await self.server.stop(grace)


async def serve(bindings: list[tuple], host: str, port: int, max_message_bytes: int = 1 << 20,
                quotas=None, credentials: grpc.ServerCredentials | None = None, reuse_port: bool = False) -> Mounted:
    """Start a server for (service_descriptor, servicer) pairs on host:port (0 = any free port);
    with `quotas`, every call counts against its peer's call rate. With `reuse_port`, other
    processes asking the same may listen on the port too (SO_REUSEPORT: the kernel spreads
    connections over them); without it (gRPC would set it by default) a taken port is a BindError."""
    options = [("grpc.max_receive_message_length", max_message_bytes),
               ("grpc.max_send_message_length", 8 * max_message_bytes),
               ("grpc.so_reuseport", 1 if reuse_port else 0)]
    interceptors = [MetricsInterceptor(), ErrorInterceptor(), SeatInterceptor()]
    if quotas is not None:
        interceptors.append(QuotaInterceptor(quotas))
    server = grpc.aio.server(interceptors=interceptors, options=options)
    names = []
    for descriptor, servicer in bindings:
        server.add_generic_rpc_handlers((generic_handler(descriptor, servicer),))
        names.append(descriptor.full_name)
    health = HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    reflection.enable(names + [health_pb2.DESCRIPTOR.services_by_name["Health"].full_name], server)
    warn_if_plaintext(host, credentials is not None)
    try:
        if credentials is None:
            bound = server.add_insecure_port(f"{host}:{port}")
        else:
            bound = server.add_secure_port(f"{host}:{port}", credentials)
    except RuntimeError:
        bound = 0
    if bound == 0:
        raise BindError(f"cannot listen on {host}:{port}: address already in use (or not this machine's)")
    await server.start()
    for name in names + [""]:
        await health.set(name, health_pb2.HealthCheckResponse.SERVING)
    return Mounted(server, bound, health, names)


STOP_SLACK_S = 8.0  # beyond drain and grace: closing the platform's clients


async def run_until_signalled(mounted: list[Mounted], on_stop=None, drain_s: float = 0.0,
                              grace_s: float = 5.0) -> None:
    """Serve until SIGTERM or SIGINT, then drain for `drain_s` and stop gracefully. A second
    signal during the drain cuts it short. A process that has not stopped `STOP_SLACK_S`
    after its drain and grace prints every thread's stack and exits with status 1, so a stop
    that hangs is seen with its cause, never as a process that lingers (SIGUSR1 prints the
    stacks at any time)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    await stop.wait()
    stop.clear()
    log.info("stopping")
    faulthandler.dump_traceback_later(drain_s + grace_s + STOP_SLACK_S, exit=True)
    await asyncio.gather(*(m.drain() for m in mounted))
    if drain_s > 0:
        try:
            await asyncio.wait_for(stop.wait(), drain_s)
        except asyncio.TimeoutError:
            pass
    await asyncio.gather(*(m.stop(grace_s) for m in mounted))
    if on_stop:
        await on_stop()
