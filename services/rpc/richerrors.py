"""The details of a refusal, as google.rpc.Status (docs/api-errors.md).

Every refusal the error interceptor sends carries, beside its status code and message, a
`google.rpc.Status` in the trailing metadata `grpc-status-details-bin` (read it with
`grpc_status.rpc_status.from_call`) holding:

* always a `google.rpc.ErrorInfo`: domain "archmage.dev", a stable `reason` (below) and
  `metadata` (the rule, the limit, the field, the dependency, as they apply);
* for a rule that forbids an action, `archmage.common.v1.RuleDetail` (rule and reason),
  and the rule in ErrorInfo's metadata "rule" (also the `x-rule` header, as before);
* for malformed input, a `google.rpc.BadRequest` with one field violation;
* where a retry may succeed (RESOURCE_EXHAUSTED from a limit, ABORTED on a stale version or
  a lost race, UNAVAILABLE), a `google.rpc.RetryInfo` with the delay to wait.
"""
from __future__ import annotations

import grpc
from archmage.common.v1 import common_pb2
from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from services.core import errors as perr
from shared.engine import errors as eerr

DOMAIN = "archmage.dev"


def reason_of(exc: BaseException | None, code: grpc.StatusCode) -> str:
    """The stable reason of a refusal: one per kind of error, never the message text."""
    if isinstance(exc, eerr.RuleViolation):
        return "RULE_VIOLATION"
    if isinstance(exc, eerr.NotYourTurn):
        return "NOT_YOUR_TURN"
    if isinstance(exc, eerr.WrongChanceOutcome):
        return "WRONG_CHANCE_OUTCOME"
    if isinstance(exc, eerr.MalformedAction):
        return "MALFORMED_ACTION"
    if isinstance(exc, eerr.InvalidConfig):
        return "INVALID_CONFIG"
    if isinstance(exc, perr.Conflict):
        return "STALE_VERSION" if "stale version" in str(exc) else "CONFLICT"
    if getattr(exc, "retry_s", None) is not None:
        return "RATE_LIMITED"
    if isinstance(exc, perr.LimitExceeded):
        return "TOO_LARGE"
    if isinstance(exc, perr.Unavailable):
        return "DEPENDENCY_UNAVAILABLE"
    return {
        grpc.StatusCode.INVALID_ARGUMENT: "MALFORMED_REQUEST",
        grpc.StatusCode.NOT_FOUND: "NOT_FOUND",
        grpc.StatusCode.UNAUTHENTICATED: "UNAUTHENTICATED",
        grpc.StatusCode.PERMISSION_DENIED: "PERMISSION_DENIED",
        grpc.StatusCode.FAILED_PRECONDITION: "PRECONDITION",
        grpc.StatusCode.ALREADY_EXISTS: "ALREADY_EXISTS",
        grpc.StatusCode.DEADLINE_EXCEEDED: "TOO_SLOW",
    }.get(code, code.name)


def _pack(message) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


def status(code: grpc.StatusCode, message: str, exc: BaseException | None = None, field: str = "") -> grpc.Status:
    """A grpc.Status whose trailing metadata holds the google.rpc.Status details of the refusal."""
    info = error_details_pb2.ErrorInfo(reason=reason_of(exc, code), domain=DOMAIN)
    details = []
    if isinstance(exc, eerr.RuleViolation):
        info.metadata["rule"] = exc.rule
        details.append(common_pb2.RuleDetail(rule=exc.rule, reason=exc.detail))
    field = field or getattr(exc, "field", "") or ""
    if code == grpc.StatusCode.INVALID_ARGUMENT:
        if field:
            info.metadata["field"] = field
        details.append(error_details_pb2.BadRequest(field_violations=[
            error_details_pb2.BadRequest.FieldViolation(field=field, description=message)]))
    retry_s = getattr(exc, "retry_s", None)
    if isinstance(exc, perr.QuotaLike):
        info.metadata["limit"] = exc.name
    if retry_s is None and code in (grpc.StatusCode.ABORTED, grpc.StatusCode.UNAVAILABLE):
        retry_s = 0 if code == grpc.StatusCode.ABORTED else 1
    if retry_s is not None:
        details.append(error_details_pb2.RetryInfo(retry_delay=duration_pb2.Duration(seconds=int(retry_s))))
    if isinstance(exc, perr.Unavailable):
        info.metadata["dependency"] = exc.dependency
    rpc = status_pb2.Status(code=code.value[0], message=message,
                            details=[_pack(info)] + [_pack(d) for d in details])
    assert code_pb2.Code.Name(rpc.code)  # a known code
    return rpc_status.to_status(rpc)
