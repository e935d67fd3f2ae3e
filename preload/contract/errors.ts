// Results and errors: one typed, serialisable BridgeError per failure.
// Part of the contract (../contract.ts re-exports every part): no imports but its siblings.

// ---- results and errors -------------------------------------------------------------------------

export type ErrorCode =
  /** The payload did not match the channel's schema (a bug in the caller). */
  | 'INVALID_PARAMS'
  /** A value a person typed is wrong; `fields` says which and why. */
  | 'VALIDATION'
  | 'NOT_FOUND'
  /** The thing exists but is in the wrong state for this (retry a running job...). */
  | 'CONFLICT'
  /** This platform cannot do it (a native dialog in the browser). */
  | 'NOT_SUPPORTED'
  /** The service answered with an error; `internalErrorName` carries its name. */
  | 'SERVICE'
  | 'CREDENTIALS'
  | 'OFFLINE'
  /** The system keychain is missing, locked or refused; the message says what to install or unlock. */
  | 'KEYCHAIN'
  | 'FILESYSTEM'
  /** The request did not come from Sluice's own window (Electron) or lacked the token (web). */
  | 'FORBIDDEN'
  | 'INTERNAL';

export interface FieldError {
  /** Dotted path of the field ("queue.uploadConcurrency", "watchFolders.0.path", "start"). */
  path: string;
  message: string;
}

export interface BridgeError {
  code: ErrorCode;
  /** A sentence a person can act on; never holds a secret. */
  message: string;
  /** Trying the same request again later may succeed. */
  retryable: boolean;
  fields?: FieldError[];
  internalErrorName?: string;
  statusCode?: number;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: BridgeError };
