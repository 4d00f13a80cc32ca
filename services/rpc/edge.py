"""The edge of every server: three interceptors and the request decoding they rely on.

* SeatInterceptor reads the "x-seat-token" metadata into a context variable, so
  handlers know which seat claims to call (the match driver proves the claim), and the
  "authorization" metadata (a player's session credential, checked by the handlers that
  act for a player, services/players/credentials.py);
* ErrorInterceptor translates domain and engine errors to status codes, once: a
  dependency that is down (Redis, a peer service) is UNAVAILABLE naming it, and anything
  unexpected is INTERNAL with the cause logged, never UNKNOWN;
* MetricsInterceptor times every call and counts its status code.
Requests are decoded by `safe_deserializer`: bytes that are not the expected message,
or a field over its size cap (services/rpc/caps.py), become a Malformed marker that
the error interceptor answers with INVALID_ARGUMENT. Every error message is cut to
MAX_DETAILS characters, so no refusal echoes an oversized value back.
"""
from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from typing import Any, Callable

import grpc

from services.core import errors as perr
from services.core import seats
from services.core.metrics import Children
from services.rpc import caps
from shared.engine import errors as eerr

log = logging.getLogger("archmage.edge")

# no unary call may hold a server longer than this, whatever deadline the client set
UNARY_LIMIT_S = 30.0
MAX_DETAILS = 500

CLAIM: contextvars.ContextVar[seats.SeatClaim | None] = contextvars.ContextVar("seat_claim", default=None)
BEARER: contextvars.ContextVar[str | None] = contextvars.ContextVar("bearer", default=None)


class Malformed:
    """A request whose bytes did not parse as its message type, or with a field over its cap."""

    def __init__(self, details: str, field: str = ""):
        self.details = details
        self.field = field


def safe_deserializer(message_class) -> Callable[[bytes], Any]:
    type_name = message_class.DESCRIPTOR.full_name

    def decode(data: bytes):
        try:
            message = message_class.FromString(data)
        except Exception as exc:  # any parse failure is the client's malformed input
            return Malformed(f"the request is not a valid {type_name}: {str(exc) or type(exc).__name__}")
        try:
            caps.check(message)
        except caps.FieldTooLarge as exc:
            return Malformed(f"{type_name}: {exc}", exc.field)
        return message

    return decode


def cut(exc: BaseException) -> str:
    text = str(exc)
    return text if len(text) <= MAX_DETAILS else text[:MAX_DETAILS - 3] + "..."


_CODES: list[tuple[type, grpc.StatusCode]] = [
    (perr.BadRequest, grpc.StatusCode.INVALID_ARGUMENT),
    (perr.NotFound, grpc.StatusCode.NOT_FOUND),
    (perr.Conflict, grpc.StatusCode.ABORTED),
    (perr.Unauthenticated, grpc.StatusCode.UNAUTHENTICATED),
    (perr.PermissionDenied, grpc.StatusCode.PERMISSION_DENIED),
    (perr.Precondition, grpc.StatusCode.FAILED_PRECONDITION),
    (perr.LimitExceeded, grpc.StatusCode.RESOURCE_EXHAUSTED),
    (perr.AlreadyExists, grpc.StatusCode.ALREADY_EXISTS),
    (perr.Unavailable, grpc.StatusCode.UNAVAILABLE),
    (eerr.MalformedAction, grpc.StatusCode.INVALID_ARGUMENT),
    (eerr.InvalidConfig, grpc.StatusCode.INVALID_ARGUMENT),
    (eerr.NotYourTurn, grpc.StatusCode.FAILED_PRECONDITION),
    (eerr.RuleViolation, grpc.StatusCode.FAILED_PRECONDITION),
    (eerr.WrongChanceOutcome, grpc.StatusCode.FAILED_PRECONDITION),
]


def status_for(exc: BaseException) -> grpc.StatusCode | None:
    for cls, code in _CODES:
        if isinstance(exc, cls):
            return code
    return None


async def _iterate(behavior, request, context):
    """The items of a server-streaming handler, whether it yields them or writes them
    itself with context.write (as the standard health service does)."""
    result = behavior(request, context)
    if hasattr(result, "__aiter__"):
        async for item in result:
            yield item
    else:
        await result


def _wrap(handler: grpc.RpcMethodHandler, around) -> grpc.RpcMethodHandler:
    """A copy of `handler` whose behaviour runs inside `around(behavior, streaming)`."""
    if handler is None:
        return None
    if handler.unary_unary:
        return grpc.unary_unary_rpc_method_handler(around(handler.unary_unary, False),
                                                   handler.request_deserializer, handler.response_serializer)
    if handler.unary_stream:
        return grpc.unary_stream_rpc_method_handler(around(handler.unary_stream, True),
                                                    handler.request_deserializer, handler.response_serializer)
    return handler


async def refuse(context, code: grpc.StatusCode, message: str, exc: BaseException | None = None, field: str = "",
                 extra: list | tuple = ()) -> None:
    """Abort with `code` and `message`, the google.rpc.Status details (services/rpc/richerrors.py)
    in the trailing metadata beside `extra`."""
    from services.rpc.richerrors import status

    rich = status(code, message, exc, field)
    await context.abort(code, message, trailing_metadata=tuple(extra) + tuple(rich.trailing_metadata))


def _before(handler: grpc.RpcMethodHandler, step) -> grpc.RpcMethodHandler:
    """A copy of `handler` that awaits `step(context)` before the call, unary or streaming alike."""
    def around(behavior, streaming):
        if streaming:
            async def stream(request, context):
                await step(context)
                async for item in _iterate(behavior, request, context):
                    yield item
            return stream

        async def unary(request, context):
            await step(context)
            return await behavior(request, context)
        return unary

    return _wrap(handler, around)


class SeatInterceptor(grpc.aio.ServerInterceptor):
    async def intercept_service(self, continuation, details):
        handler = await continuation(details)
        token = next((v for k, v in details.invocation_metadata or () if k == seats.METADATA_KEY), None)
        bearer = next((v for k, v in details.invocation_metadata or () if k == "authorization"), None)
        if isinstance(bearer, bytes):
            bearer = bearer.decode("ascii", "replace")

        async def claim(context) -> None:
            CLAIM.set(None if token is None else seats.parse(token if isinstance(token, str) else token.decode()))
            BEARER.set(bearer)

        return _before(handler, claim)


class ErrorInterceptor(grpc.aio.ServerInterceptor):
    async def intercept_service(self, continuation, details):
        handler = await continuation(details)
        method = details.method

        async def fail(context, exc: BaseException):
            exc = perr.unavailable_from(exc) or exc  # a dependency down: UNAVAILABLE, never INTERNAL
            code = status_for(exc)
            if code is None:
                log.exception("unexpected error in %s", method, exc_info=exc)
                await context.abort(grpc.StatusCode.INTERNAL, f"internal error in {method}; it has been logged")
            extra = []
            if isinstance(exc, eerr.RuleViolation):
                extra.append(("x-rule", exc.rule.encode("ascii", "replace").decode()))
            retry_s = getattr(exc, "retry_s", None)
            if retry_s is not None:
                extra.append(("retry-after", str(retry_s)))
            await refuse(context, code, cut(exc), exc, extra=extra)

        def around(behavior, streaming):
            if streaming:
                async def stream(request, context):
                    if isinstance(request, Malformed):
                        await refuse(context, grpc.StatusCode.INVALID_ARGUMENT, request.details, field=request.field)
                    try:
                        async for item in _iterate(behavior, request, context):
                            yield item
                    except grpc.aio.AbortError:
                        raise
                    except Exception as exc:
                        await fail(context, exc)
                return stream

            async def unary(request, context):
                if isinstance(request, Malformed):
                    await refuse(context, grpc.StatusCode.INVALID_ARGUMENT, request.details, field=request.field)
                remaining = context.time_remaining()
                limit = UNARY_LIMIT_S if remaining is None else min(remaining, UNARY_LIMIT_S)
                try:
                    return await asyncio.wait_for(behavior(request, context), limit)
                except asyncio.TimeoutError:
                    await context.abort(grpc.StatusCode.DEADLINE_EXCEEDED,
                                        f"{method} did not finish within {limit:.1f}s")
                except grpc.aio.AbortError:
                    raise
                except Exception as exc:
                    await fail(context, exc)
            return unary

        return _wrap(handler, around)


class QuotaInterceptor(grpc.aio.ServerInterceptor):
    """Counts every call against its peer's calls_per_peer limit (services/rpc/quotas.py)."""

    def __init__(self, quotas):
        self.quotas = quotas

    async def intercept_service(self, continuation, details):
        from services.rpc.quotas import peer_of

        async def count(context) -> None:
            await self.quotas.guard("calls_per_peer", peer_of(context))

        return _before(await continuation(details), count)


RPC_SECONDS = Children("rpc_seconds")
RPC_TOTAL = Children("rpc_total")


def service_and_method(path: str | None) -> tuple[str, str]:
    """("Combat", "Resolve") of "/archmage.combat.v1.Combat/Resolve": the labels of a call."""
    service, _, method = (path or "?/?").lstrip("/").rpartition("/")
    return service.rsplit(".", 1)[-1] or "?", method


class MetricsInterceptor(grpc.aio.ServerInterceptor):
    def __init__(self) -> None:
        # a served method's labels, parsed at its first call (only methods with a handler: bounded)
        self._labels: dict[str, tuple[str, str]] = {}

    async def intercept_service(self, continuation, details):
        handler = await continuation(details)
        if handler is None:  # an unknown method: gRPC answers UNIMPLEMENTED; no series for a client-chosen name
            return None
        labels = self._labels.get(details.method)
        if labels is None:
            labels = self._labels[details.method] = service_and_method(details.method)
        service, method = labels
        seconds = RPC_SECONDS(service, method)

        def code_of(context, failed: BaseException | None) -> str:
            code = context.code()
            if code is None:
                if isinstance(failed, (asyncio.CancelledError, GeneratorExit)):  # the client went away
                    return "CANCELLED"
                return "OK" if failed is None else "UNKNOWN"
            return code.name if hasattr(code, "name") else str(code)

        def around(behavior, streaming):
            if streaming:
                async def stream(request, context):
                    failed = None
                    try:
                        async for item in _iterate(behavior, request, context):
                            yield item
                    except BaseException as exc:
                        failed = exc
                        raise
                    finally:
                        RPC_TOTAL(service, method, code_of(context, failed)).inc()
                return stream

            async def unary(request, context):
                start = time.perf_counter()
                failed = None
                try:
                    return await behavior(request, context)
                except BaseException as exc:
                    failed = exc
                    raise
                finally:
                    seconds.observe(time.perf_counter() - start)
                    RPC_TOTAL(service, method, code_of(context, failed)).inc()
            return unary

        return _wrap(handler, around)


def current_claim() -> seats.SeatClaim | None:
    return CLAIM.get()


def current_bearer() -> str | None:
    """The caller's "authorization" metadata, unchecked (Credentials.require checks it)."""
    return BEARER.get()
