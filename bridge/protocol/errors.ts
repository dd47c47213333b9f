// Typed errors that survive the wire. The server throws them; JSON-RPC carries
// `code`, `message` and `data.name`; the client rebuilds the same class by code.

export const ErrorCode = {
  /** A server's limit was reached (the Env server's environments per server); data.limit names it. */
  LimitExceeded: -32009,
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  Internal: -32603,
  Unauthorized: -32001,
  Timeout: -32002,
  NotAvailable: -32003,
  TargetClosed: -32004,
  PayloadTooLarge: -32005,
  ActionFailed: -32006,
  Busy: -32007,
  Forbidden: -32008,
  EnvironmentLost: -32010,
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

export class PwpError extends Error {
  constructor(
    readonly code: ErrorCodeValue,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The message was not JSON, or not a JSON-RPC 2.0 request. */
export class ParseError extends PwpError {
  constructor(message: string) { super(ErrorCode.ParseError, message); }
}
export class InvalidRequestError extends PwpError {
  constructor(message: string) { super(ErrorCode.InvalidRequest, message); }
}
export class MethodNotFoundError extends PwpError {
  constructor(message: string, data?: Record<string, unknown>) { super(ErrorCode.MethodNotFound, message, data); }
  static forMethod(method: string, known?: string[]): MethodNotFoundError {
    return new MethodNotFoundError(`unknown method '${method}'`, known ? { known } : undefined);
  }
}
/** Params failed validation; the message names the field (`params.x: expected number`). */
export class InvalidParamsError extends PwpError {
  constructor(message: string, data?: Record<string, unknown>) { super(ErrorCode.InvalidParams, message, data); }
}
export class UnauthorizedError extends PwpError {
  constructor(message = 'missing or wrong bridge token') { super(ErrorCode.Unauthorized, message); }
}
export class TimeoutError extends PwpError {
  constructor(message: string) { super(ErrorCode.Timeout, message); }
}
/** The part that serves the call (IDE, browser, extension, a host feature) is not there now. */
export class NotAvailableError extends PwpError {
  constructor(message: string) { super(ErrorCode.NotAvailable, message); }
}
/** The connection closed before the call was answered. */
export class TargetClosedError extends PwpError {
  constructor(message = 'the bridge connection closed') { super(ErrorCode.TargetClosed, message); }
}
/**
 * The environment is gone from under the connection: the node running it was lost or its
 * container ended (data.node names the node, where the backend has nodes). Its episode is over.
 */
export class EnvironmentLostError extends PwpError {
  constructor(message: string, data?: Record<string, unknown>) { super(ErrorCode.EnvironmentLost, message, data); }
}
/** A limit of the server was reached (data.limit names it, data.max its value): nothing was started. */
export class LimitExceededError extends PwpError {
  constructor(message: string, data?: Record<string, unknown>) { super(ErrorCode.LimitExceeded, message, data); }
}
export class PayloadTooLargeError extends PwpError {
  constructor(message: string, data?: Record<string, unknown>) { super(ErrorCode.PayloadTooLarge, message, data); }
  static of(bytes: number, limit: number): PayloadTooLargeError {
    return new PayloadTooLargeError(`message of ${bytes} bytes exceeds the limit of ${limit} bytes`, { bytes, limit });
  }
}
/** The action was valid but the tool that performs it failed (xdotool exit code, ffmpeg error). */
export class ActionFailedError extends PwpError {
  constructor(message: string, data?: Record<string, unknown>) { super(ErrorCode.ActionFailed, message, data); }
}

/** This client already has as many calls in flight as it may; retry when some have answered. */
export class BusyError extends PwpError {
  constructor(message: string, data?: Record<string, unknown>) { super(ErrorCode.Busy, message, data); }
}

const byCode: Record<number, new (message: string) => PwpError> = {
  [ErrorCode.LimitExceeded]: LimitExceededError,
  [ErrorCode.ParseError]: ParseError,
  [ErrorCode.InvalidRequest]: InvalidRequestError,
  [ErrorCode.MethodNotFound]: MethodNotFoundError,
  [ErrorCode.InvalidParams]: InvalidParamsError,
  [ErrorCode.Unauthorized]: UnauthorizedError,
  [ErrorCode.Timeout]: TimeoutError,
  [ErrorCode.NotAvailable]: NotAvailableError,
  [ErrorCode.TargetClosed]: TargetClosedError,
  [ErrorCode.ActionFailed]: ActionFailedError,
  [ErrorCode.PayloadTooLarge]: PayloadTooLargeError,
  [ErrorCode.Busy]: BusyError,
  [ErrorCode.EnvironmentLost]: EnvironmentLostError,
};

export interface WireError { code: number; message: string; data?: unknown }

/** Rebuilds the typed error a server sent, so callers can `instanceof` it. */
export function errorFromWire(e: WireError): PwpError {
  const Ctor = byCode[e.code];
  const err = Ctor ? new Ctor(e.message) : new PwpError(e.code as ErrorCodeValue, e.message);
  if (e.data !== undefined) Object.assign(err, { data: e.data });
  return err;
}

export function errorToWire(err: unknown): WireError {
  if (err instanceof PwpError) return { code: err.code, message: err.message, data: { ...err.data, name: err.name } };
  const message = err instanceof Error ? err.message : String(err);
  return { code: ErrorCode.Internal, message: `internal error: ${message}`, data: { name: 'InternalError' } };
}
