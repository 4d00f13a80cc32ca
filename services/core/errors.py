"""The platform's domain errors. Handlers raise these (or engine errors); one
interceptor translates them to gRPC status codes, at the edge.

    PlatformError
    ├── BadRequest            malformed input               -> INVALID_ARGUMENT
    ├── NotFound              no such match or session      -> NOT_FOUND
    ├── Conflict              lost compare-and-set / stale  -> ABORTED
    ├── Unauthenticated       missing or wrong seat token   -> UNAUTHENTICATED
    ├── PermissionDenied      a token for another seat/match-> PERMISSION_DENIED
    ├── Precondition          the match or session forbids it now -> FAILED_PRECONDITION
    ├── LimitExceeded         too big, too many             -> RESOURCE_EXHAUSTED
    ├── AlreadyExists         one of a kind, asked twice    -> ALREADY_EXISTS
    └── Unavailable           a dependency is down (Redis, the dice service) -> UNAVAILABLE:
                              the client may retry; `unavailable_from` names the dependency
                              behind a library's connection or timeout error
    shared.engine.EngineError (from the rules engines) is mapped too:
    MalformedAction/InvalidConfig -> INVALID_ARGUMENT, NotYourTurn/RuleViolation/
    WrongChanceOutcome -> FAILED_PRECONDITION (RuleViolation names its rule).
"""
from __future__ import annotations


class PlatformError(Exception):
    """Base of the errors the platform raises on purpose."""


class BadRequest(PlatformError):
    """Malformed input; `field` names the request field at fault when one is ("" otherwise)."""

    def __init__(self, message: str, field: str = ""):
        super().__init__(message)
        self.field = field


class NotFound(PlatformError):
    pass


class Conflict(PlatformError):
    """A compare-and-set that lost (or a client's stale version). A commit the store refused
    may carry `record`: the record as it was when refused, so the loser retries without
    loading it again (services/core/store_contract.py)."""

    def __init__(self, *args, record: dict | None = None):
        super().__init__(*args)
        self.record = record


class Unauthenticated(PlatformError):
    pass


class PermissionDenied(PlatformError):
    pass


class Precondition(PlatformError):
    pass


class LimitExceeded(PlatformError):
    pass


class AlreadyExists(PlatformError):
    pass


class QuotaLike(LimitExceeded):
    """A limit on a rate: `name` names the limit, `retry_s` when to try again."""

    name: str = ""
    retry_s: int = 1


class Unavailable(PlatformError):
    """A dependency is down or not answering in time; a retry may succeed."""

    def __init__(self, dependency: str, detail: str):
        super().__init__(f"{dependency} is unavailable ({detail}); retry shortly")
        self.dependency = dependency


def unavailable_from(exc: BaseException) -> Unavailable | None:
    """The dependency failure behind a library error, or None when it is not one: Redis
    unreachable, timing out, loading, read-only or failing over; a peer gRPC service
    UNAVAILABLE or out of time."""
    if isinstance(exc, Unavailable):
        return exc
    from redis import exceptions as rx

    transient = (rx.ConnectionError, rx.TimeoutError, rx.ReadOnlyError, rx.ClusterDownError, rx.TryAgainError,
                 rx.MasterDownError, rx.ClusterError)
    if isinstance(exc, transient):
        return Unavailable("Redis", f"{type(exc).__name__}: {exc}")
    import grpc

    if isinstance(exc, grpc.aio.AioRpcError) and exc.code() in (grpc.StatusCode.UNAVAILABLE,
                                                                grpc.StatusCode.DEADLINE_EXCEEDED):
        return Unavailable("a platform service this one calls", f"{exc.code().name}: {exc.details()}")
    return None
