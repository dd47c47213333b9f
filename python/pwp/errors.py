"""Typed errors of the pwp protocol (bridge/protocol/errors.ts): the server sends
{code, message, data: {name}}; the client raises the class of that code."""


class PwpError(Exception):
    """A failed pwp call. `code` is the JSON-RPC error code, `data` the server's details."""

    code = -32603

    def __init__(self, message, data=None, code=None):
        super().__init__(message)
        self.message = message
        self.data = data or {}
        if code is not None:
            self.code = code


class ParseError(PwpError):
    code = -32700


class InvalidRequestError(PwpError):
    code = -32600


class MethodNotFoundError(PwpError):
    code = -32601


class InvalidParamsError(PwpError):
    """The request or action did not fit its schema; the message names the field."""
    code = -32602


class InternalError(PwpError):
    code = -32603


class UnauthorizedError(PwpError):
    code = -32001


class TimeoutError(PwpError):  # noqa: A001 (mirrors the protocol's name)
    code = -32002


class NotAvailableError(PwpError):
    """What the call needs is not there now (no such episode, the IDE is paused, the episode is over)."""
    code = -32003


class TargetClosedError(PwpError):
    """The connection closed before the call was answered."""
    code = -32004


class PayloadTooLargeError(PwpError):
    code = -32005


class ActionFailedError(PwpError):
    """The action was valid but the tool that performs it failed (xdotool exiting non-zero)."""
    code = -32006


class BusyError(PwpError):
    """This client already has as many calls in flight as it may; retry when some have answered."""
    code = -32007


class ForbiddenError(PwpError):
    code = -32008


class LimitExceededError(PwpError):
    """A server limit was reached; data['limit'] names it, data['max'] is its value."""
    code = -32009


class EnvironmentLostError(PwpError):
    """The environment is gone (its node was lost, its container ended); data['node'] names the node. The episode is over."""
    code = -32010


BY_CODE = {c.code: c for c in (
    ParseError, InvalidRequestError, MethodNotFoundError, InvalidParamsError, InternalError, UnauthorizedError,
    TimeoutError, NotAvailableError, TargetClosedError, PayloadTooLargeError, ActionFailedError, BusyError, ForbiddenError,
    LimitExceededError, EnvironmentLostError,
)}


def error_from_wire(err):
    """The typed exception for a JSON-RPC error object (or a step's info['error'])."""
    code = err.get('code', -32603)
    cls = BY_CODE.get(code, PwpError)
    data = err.get('data') if isinstance(err.get('data'), dict) else {}
    return cls(err.get('message', 'unknown error'), data, code)
