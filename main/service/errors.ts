// One typed error for every failed call to the service (§8), plus the retry classification of §8.4.
import type { ErrorResponse } from './types.js';

/**
 * How the failure happened:
 * - `http`: the service answered with a non-2xx status (body parsed when it was an ErrorResponse);
 * - `network`: no answer (connection refused or reset, DNS failure, TLS);
 * - `timeout`: the per-operation timeout elapsed;
 * - `aborted`: the caller aborted;
 * - `input`: rejected before anything was sent (malformed id, missing file...).
 */
export type ServiceErrorKind = 'http' | 'network' | 'timeout' | 'aborted' | 'input';

/** §8.4 classes; decides what the engine does. */
export type ErrorClass = 'transient' | 'credentials' | 'request' | 'state' | 'not-found' | 'aborted';

export interface ServiceErrorInit {
  kind: ServiceErrorKind;
  message: string;
  statusCode?: number;
  title?: string;
  internalErrorName?: string;
  nestedErrors?: ErrorResponse[];
  /** Milliseconds to wait, from a Retry-After header. */
  retryAfterMs?: number;
  /** Low-level code (ECONNRESET, ENOTFOUND, UND_ERR_...). */
  code?: string;
  /** A short excerpt of a non-JSON body (proxy pages), already stripped of markup. */
  bodyExcerpt?: string;
  operation?: string;
  /** Overrides the status-based class where the status alone misleads (the token endpoint answers
   * 400 `invalid_client` for bad credentials). */
  classHint?: ErrorClass;
  cause?: unknown;
}

export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  readonly statusCode: number | undefined;
  readonly title: string | undefined;
  readonly internalErrorName: string | undefined;
  readonly nestedErrors: ErrorResponse[];
  readonly retryAfterMs: number | undefined;
  readonly code: string | undefined;
  readonly bodyExcerpt: string | undefined;
  readonly operation: string | undefined;
  readonly classHint: ErrorClass | undefined;

  constructor(init: ServiceErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ServiceError';
    this.kind = init.kind;
    this.statusCode = init.statusCode;
    this.title = init.title;
    this.internalErrorName = init.internalErrorName;
    this.nestedErrors = init.nestedErrors ?? [];
    this.retryAfterMs = init.retryAfterMs;
    this.code = init.code;
    this.bodyExcerpt = init.bodyExcerpt;
    this.operation = init.operation;
    this.classHint = init.classHint;
  }

  get errorClass(): ErrorClass {
    return classifyError(this);
  }

  /** Serialisable form (logs, IPC, the job journal). Never carries credentials. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      statusCode: this.statusCode,
      title: this.title,
      internalErrorName: this.internalErrorName,
      nestedErrors: this.nestedErrors,
      retryAfterMs: this.retryAfterMs,
      code: this.code,
      operation: this.operation,
      errorClass: this.errorClass,
    };
  }
}

const TRANSIENT_NAMES = new Set([
  'PROCESSOR_FAILED_RESERVATION_ERROR',
  'PROCESSOR_FAILED_CONFIRMATION_ERROR',
  'PROCESSOR_CORDONED_ERROR',
  'GENERAL_TIME_OUT_ERROR',
]);

/** §8.4: what kind of failure this is, independent of which operation saw it. */
export function classifyError(e: ServiceError): ErrorClass {
  if (e.classHint) return e.classHint;
  switch (e.kind) {
    case 'network':
    case 'timeout':
      return 'transient';
    case 'aborted':
      return 'aborted';
    case 'input':
      return 'request';
    case 'http':
      break;
  }
  const s = e.statusCode ?? 0;
  if (e.internalErrorName && TRANSIENT_NAMES.has(e.internalErrorName)) return 'transient';
  if (s === 401 || s === 403) return 'credentials';
  if (s === 409) return 'state';
  if (s === 404) return 'not-found';
  if (s === 429 || s >= 500) return 'transient';
  return 'request';
}

export function isServiceError(e: unknown): e is ServiceError {
  return e instanceof ServiceError;
}

/** Any thrown value as a ServiceError; what did not come from the client is a local ('input') failure. */
export function toServiceError(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  return new ServiceError({ kind: 'input', message: err instanceof Error ? err.message : String(err), cause: err });
}
