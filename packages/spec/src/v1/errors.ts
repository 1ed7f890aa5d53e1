// The marker keeps the name it had when the errors lived in @hs/harness, so that errors thrown by older
// copies are still recognised.
const marker = Symbol.for("@hs/harness.error");

/** Options accepted by every Harness-S error. */
export interface HarnessSErrorOptions {
  /** The error that caused this one. */
  cause?: unknown;
  /** Whether repeating the same operation may succeed (timeouts, 429, 5xx). */
  isRetryable?: boolean;
}

/**
 * The one base class of every error thrown by Harness-S packages. `isInstance` works across copies
 * of the package because it checks a `Symbol.for` marker, not the prototype chain.
 */
export class HarnessSError extends Error {
  readonly [marker] = true;
  /** Whether repeating the same operation may succeed. */
  readonly isRetryable: boolean;

  constructor(name: string, message: string, options: HarnessSErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = name;
    this.isRetryable = options.isRetryable ?? false;
  }

  static isInstance(error: unknown): error is HarnessSError {
    return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}

/** Where a piece of bad input was found. */
export interface InputLocation {
  /** File path, when the input came from a file. */
  file?: string;
  /** 1-based line number in that file. */
  line?: number;
  /** Dotted path of the offending field, e.g. `context.keepLastTurns`. */
  field?: string;
}

function describeLocation(location: InputLocation): string {
  const parts: string[] = [];
  if (location.file !== undefined) {
    parts.push(location.line === undefined ? location.file : `${location.file}:${location.line}`);
  }
  if (location.field !== undefined) parts.push(`field "${location.field}"`);
  return parts.length === 0 ? "" : `${parts.join(", ")}: `;
}

/** Input that does not match its schema: a config, a JSONL line, a CLI flag. */
export class InvalidInputError extends HarnessSError {
  /** Where the bad input is. */
  readonly location: InputLocation;

  constructor(message: string, location: InputLocation = {}, options: HarnessSErrorOptions = {}) {
    super("HarnessSInvalidInputError", `${describeLocation(location)}${message}`, options);
    this.location = location;
  }
}

/** An operation exceeded its time limit. Retryable. */
export class TimeoutError extends HarnessSError {
  constructor(message: string, options: HarnessSErrorOptions = {}) {
    super("HarnessSTimeoutError", message, { isRetryable: true, ...options });
  }
}

/** A call to a remote API (chat completions, environment server) failed. */
export class ApiCallError extends HarnessSError {
  /** HTTP status, when the server answered. */
  readonly status: number | undefined;
  /** The response body (possibly cut), for diagnosis. */
  readonly responseBody: string | undefined;
  /** Milliseconds the server asked us to wait (Retry-After), when it did. */
  readonly retryAfterMs: number | undefined;

  constructor(
    message: string,
    details: { status?: number; responseBody?: string; retryAfterMs?: number },
    options: HarnessSErrorOptions = {},
  ) {
    const status = details.status;
    super("HarnessSApiCallError", message, {
      isRetryable: status === undefined || status === 408 || status === 429 || status >= 500,
      ...options,
    });
    this.status = status;
    this.responseBody = details.responseBody;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** An environment could not be created, stepped, graded or closed. */
export class EnvironmentError extends HarnessSError {
  constructor(message: string, options: HarnessSErrorOptions = {}) {
    super("HarnessSEnvironmentError", message, options);
  }
}

/** The operation was cancelled through its AbortSignal. */
export class CancelledError extends HarnessSError {
  constructor(message = "cancelled", options: HarnessSErrorOptions = {}) {
    super("HarnessSCancelledError", message, options);
  }
}
