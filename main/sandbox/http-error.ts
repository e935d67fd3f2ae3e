// The ErrorResponse of contract §8.1, raised by any sandbox handler and rendered by one error
// handler, so every non-2xx (except the token endpoint's OAuth body) has the same shape.
import type { ErrorResponse, InternalErrorName } from '../service/types.js';
import { isUuid } from '../service/ids.js';

const TITLES: Partial<Record<number, string>> = {
  400: 'Bad request',
  401: 'Authentication required',
  403: 'Access denied',
  404: 'Not found',
  409: 'Conflict',
  429: 'Too many requests',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
};

export class SandboxHttpError extends Error {
  readonly statusCode: number;
  readonly internalErrorName: InternalErrorName;
  readonly title: string;
  /** Seconds for a Retry-After header (C21: only on injected 429/503). */
  readonly retryAfterS: number | undefined;

  constructor(
    statusCode: number,
    internalErrorName: InternalErrorName,
    message: string,
    opts: { title?: string; retryAfterS?: number } = {},
  ) {
    super(message);
    this.statusCode = statusCode;
    this.internalErrorName = internalErrorName;
    this.title = opts.title ?? TITLES[statusCode] ?? 'Error';
    this.retryAfterS = opts.retryAfterS;
  }

  toBody(): ErrorResponse {
    return {
      statusCode: this.statusCode,
      title: this.title,
      message: this.message,
      internalErrorName: this.internalErrorName,
      nestedErrors: [],
    };
  }
}

export const badRequest = (message: string, name: InternalErrorName = 'GENERAL_VALIDATION_ERROR'): SandboxHttpError =>
  new SandboxHttpError(400, name, message, { title: 'Invalid request' });

export const badPatch = (message: string): SandboxHttpError =>
  new SandboxHttpError(400, 'STREAM_CONFIGURATION_BAD_PATCH', message, { title: 'Invalid stream configuration' });

export const badProperties = (message: string): SandboxHttpError =>
  new SandboxHttpError(400, 'PROCESSOR_PROPERTIES_VALIDATION_ERROR', message, {
    title: 'Invalid processor properties',
  });

export const notFound = (message: string): SandboxHttpError =>
  new SandboxHttpError(404, 'GENERAL_NOT_FOUND_ERROR', message);

export const conflict = (message: string): SandboxHttpError =>
  new SandboxHttpError(409, 'GENERAL_CONFLICT_ERROR', message);

/** C15: a malformed UUID in a path or query is a 400, not a 404. */
export function requireUuid(value: string, what: string): string {
  if (!isUuid(value)) throw badRequest(`Invalid ${what}: ${value}`);
  return value.toLowerCase();
}
