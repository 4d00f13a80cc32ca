"""The platform's domain errors. Handlers raise these (or engine errors); one
interceptor translates them to gRPC status codes, at the edge.

    PlatformError
    ├── BadRequest            malformed input               -> INVALID_ARGUMENT
    ├── NotFound              no such match or session      -> NOT_FOUND
    ├── Conflict              lost compare-and-set / stale  -> ABORTED
    ├── Unauthenticated       missing or wrong seat token   -> UNAUTHENTICATED
    ├── PermissionDenied      a token for another seat/match-> PERMISSION_DENIED
    ├── Precondition          the match or session forbids it now -> FAILED_PRECONDITION
    └── LimitExceeded         too big, too many             -> RESOURCE_EXHAUSTED
    shared.engine.EngineError (from the rules engines) is mapped too:
    MalformedAction/InvalidConfig -> INVALID_ARGUMENT, NotYourTurn/RuleViolation/
    WrongChanceOutcome -> FAILED_PRECONDITION (RuleViolation names its rule).
"""
from __future__ import annotations


class PlatformError(Exception):
    """Base of the errors the platform raises on purpose."""


class BadRequest(PlatformError):
    pass


class NotFound(PlatformError):
    pass


class Conflict(PlatformError):
    pass


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
