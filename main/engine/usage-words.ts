// Why the service could not say what a file cost, in words a person can act on: the screens and
// `sluice usage --stream` show these instead of the service's error. Pure.
import type { ServiceError } from '../service/errors.js';

export interface UsageProblem {
  /** gone: the service no longer holds the stream's usage (or never did); the others say why it could not answer. */
  kind: 'gone' | 'offline' | 'credentials' | 'busy' | 'bad-id' | 'other';
  message: string;
  /** Asking again later may answer. */
  retryable: boolean;
}

export function streamUsageProblem(e: ServiceError): UsageProblem {
  if (e.kind === 'input') {
    return {
      kind: 'bad-id',
      message: 'That is not a stream id: it looks like 123e4567-e89b-12d3-a456-426614174000 (see the job’s details).',
      retryable: false,
    };
  }
  switch (e.errorClass) {
    case 'not-found':
      return {
        kind: 'gone',
        message:
          'The service no longer keeps this file’s usage, so what it cost cannot be shown. Usage still counts it in its month.',
        retryable: false,
      };
    case 'credentials':
      return {
        kind: 'credentials',
        message:
          'The service refused Sluice’s key, so it cannot say what this file cost. Check the API key in Settings.',
        retryable: false,
      };
    case 'transient':
      return e.kind === 'network' || e.kind === 'timeout'
        ? {
            kind: 'offline',
            message: 'The usage service cannot be reached right now. Check the connection and try again.',
            retryable: true,
          }
        : {
            kind: 'busy',
            message: 'The usage service is busy and did not answer. Try again in a minute.',
            retryable: true,
          };
    default:
      return {
        kind: 'other',
        message: 'The usage service could not say what this file cost. Try again later.',
        retryable: false,
      };
  }
}
