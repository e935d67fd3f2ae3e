// Failures as they cross the bridge: one typed, serialisable BridgeError per failure, with a
// sentence a person can act on. Nothing is thrown across a transport (Electron keeps only an
// Error's message), so every handler's throw ends up here.
import { z } from 'zod';
import type { BridgeError, ErrorCode, FieldError, Result } from '../../preload/contract.js';
import { ServiceError } from '../service/errors.js';
import { ConnectionError } from '../adapters/queue/connection.js';
import { KeychainError } from '../adapters/store/secrets/keychain.js';
import { SettingsValidationError } from '../adapters/store/state/settings-store.js';
import { NoExportDataError } from '../adapters/results/rewriter.js';
import { RetryRefused, TemplateRejected } from '../runtime/queue-commands.js';

/** Thrown inside handlers to answer with a chosen code; anything else is mapped by `toBridgeError`. */
export class BridgeFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Partial<Omit<BridgeError, 'code' | 'message'>> = {},
  ) {
    super(message);
    this.name = 'BridgeFailure';
  }
}

export const notFound = (what: string): BridgeFailure => new BridgeFailure('NOT_FOUND', `${what} no longer exists.`);
export const conflict = (message: string): BridgeFailure => new BridgeFailure('CONFLICT', message);
export const validation = (fields: FieldError[]): BridgeFailure =>
  new BridgeFailure(
    'VALIDATION',
    fields.length === 1 ? `${fields[0]?.path}: ${fields[0]?.message}` : `${fields.length} fields need attention.`,
    { fields },
  );
export const notSupported = (message: string): BridgeFailure => new BridgeFailure('NOT_SUPPORTED', message);

export function fieldErrors(error: z.ZodError, prefix: readonly (string | number)[] = []): FieldError[] {
  return error.issues.map((i) => ({
    path: [...prefix, ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))].join('.') || 'value',
    message: i.message,
  }));
}

const RETRYABLE_SERVICE = new Set(['transient']);

export function toBridgeError(e: unknown): BridgeError {
  if (e instanceof BridgeFailure) {
    return { code: e.code, message: e.message, retryable: e.extra.retryable ?? false, ...e.extra };
  }
  if (e instanceof z.ZodError) {
    return { code: 'INVALID_PARAMS', message: 'The request was malformed.', retryable: false, fields: fieldErrors(e) };
  }
  if (e instanceof SettingsValidationError) {
    const fields = e.issues.map((line) => {
      const at = line.indexOf(': ');
      return at > 0 ? { path: line.slice(0, at), message: line.slice(at + 2) } : { path: 'settings', message: line };
    });
    return { code: 'VALIDATION', message: e.message, retryable: false, fields };
  }
  if (e instanceof RetryRefused) return { code: 'CONFLICT', message: e.message, retryable: false };
  if (e instanceof TemplateRejected) {
    return toBridgeError(validation(e.problems.map((p) => ({ path: p.field, message: p.detail }))));
  }
  if (e instanceof KeychainError) {
    return { code: 'KEYCHAIN', message: e.message, retryable: e.problem === 'locked' };
  }
  if (e instanceof ConnectionError) return { code: 'CREDENTIALS', message: e.message, retryable: false };
  if (e instanceof ServiceError) return serviceError(e);
  if (e instanceof NoExportDataError) return { code: 'SERVICE', message: e.message, retryable: false };
  const errno = e as NodeJS.ErrnoException;
  if (errno && typeof errno.code === 'string' && /^E[A-Z]+$/.test(errno.code)) {
    return { code: 'FILESYSTEM', message: fsMessage(errno), retryable: errno.code === 'EBUSY' };
  }
  const message = e instanceof Error ? e.message : String(e);
  return {
    code: 'INTERNAL',
    message: `Something went wrong inside Sluice: ${message.slice(0, 300)}`,
    retryable: false,
  };
}

function serviceError(e: ServiceError): BridgeError {
  const base = {
    message: e.message,
    ...(e.internalErrorName ? { internalErrorName: e.internalErrorName } : {}),
    ...(e.statusCode !== undefined ? { statusCode: e.statusCode } : {}),
  };
  if (e.kind === 'network' || e.kind === 'timeout') return { code: 'OFFLINE', retryable: true, ...base };
  if (e.kind === 'input') return { code: 'VALIDATION', retryable: false, ...base };
  if (e.errorClass === 'credentials') return { code: 'CREDENTIALS', retryable: false, ...base };
  if (e.errorClass === 'not-found') return { code: 'NOT_FOUND', retryable: false, ...base };
  return { code: 'SERVICE', retryable: RETRYABLE_SERVICE.has(e.errorClass), ...base };
}

function fsMessage(e: NodeJS.ErrnoException): string {
  const where = e.path ? ` (${e.path})` : '';
  switch (e.code) {
    case 'ENOENT':
      return `The file or folder does not exist${where}.`;
    case 'EACCES':
    case 'EPERM':
      return `Permission denied${where}. Check that your account may read and write there.`;
    case 'ENOSPC':
      return `The disk is full${where}. Free some space and try again.`;
    default:
      return `${e.message}`.slice(0, 300);
  }
}

/** Runs a handler body and answers with a Result; never throws. */
export async function settle<T>(f: () => Promise<T> | T): Promise<Result<T>> {
  try {
    return { ok: true, value: await f() };
  } catch (e) {
    return { ok: false, error: toBridgeError(e) };
  }
}
