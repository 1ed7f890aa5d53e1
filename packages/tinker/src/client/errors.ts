import { HarnessSError } from "@hs/spec";

/** The server refused a request for good (4xx other than 408/410/429) or the retries ran out. */
export class TinkerApiError extends HarnessSError {
  /** HTTP status, undefined when the connection failed. */
  readonly status: number | undefined;
  /** Endpoint path, e.g. `/api/v1/forward_backward`. */
  readonly endpoint: string;
  /** The body the server answered (cut to 2,000 characters). */
  readonly responseBody: string | undefined;

  constructor(
    message: string,
    details: { status?: number; endpoint: string; responseBody?: string },
    options: { cause?: unknown; isRetryable?: boolean } = {},
  ) {
    super("HarnessSTinkerApiError", message, options);
    this.status = details.status;
    this.endpoint = details.endpoint;
    this.responseBody = details.responseBody;
  }
}

/** A seq_id was reused with other data (SkyRL answers 409): client and server disagree on history. */
export class TinkerConflictError extends TinkerApiError {}

/** A queued request finished with an error (Tinker's RequestFailedResponse or SkyRL's 400). */
export class TinkerRequestFailedError extends HarnessSError {
  /** `user` (bad input), `server` or `unknown`. */
  readonly category: "unknown" | "server" | "user";
  /** The request id of the failed future. */
  readonly requestId: string;

  constructor(message: string, category: "unknown" | "server" | "user", requestId: string) {
    super("HarnessSTinkerRequestFailedError", `request ${requestId} failed (${category}): ${message}`, {
      isRetryable: category === "server",
    });
    this.category = category;
    this.requestId = requestId;
  }
}

/** A logical call did not finish within its total deadline (`deadlineMs`, `--tinker-deadline`). */
export class TinkerDeadlineError extends HarnessSError {
  /** What was waited on, e.g. `/forward_backward request_12`. */
  readonly waitedOn: string;
  /** The deadline in milliseconds. */
  readonly deadlineMs: number;

  constructor(waitedOn: string, deadlineMs: number, lastState: string) {
    super(
      "HarnessSTinkerDeadlineError",
      `${waitedOn}: no result within the deadline of ${Math.round(deadlineMs / 1000)} s (last: ${lastState}); raise it with deadlineMs / --tinker-deadline`,
      { isRetryable: true },
    );
    this.waitedOn = waitedOn;
    this.deadlineMs = deadlineMs;
  }
}
