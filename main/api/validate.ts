// Fail-fast checks: bad input is a ServiceError of kind 'input' and nothing is sent.
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { inputError } from './error-mapping.js';
import { isTemplateId, TEMPLATE_ID_RULE } from '../service/templates.js';

import { isUuid } from '../service/ids.js';

export function requireUuid(operation: string, what: string, v: unknown): string {
  if (!isUuid(v)) throw inputError(operation, `The ${what} must be a UUID (got ${describe(v)}).`);
  return v;
}

export function requireTemplateId(operation: string, v: unknown): string {
  if (typeof v !== 'string' || v === '') throw inputError(operation, 'A configuration template id is required.');
  if (!isTemplateId(v)) {
    throw inputError(operation, `The template id must be ${TEMPLATE_ID_RULE} (got ${describe(v)}).`);
  }
  return v;
}

export function requireInt(operation: string, what: string, v: unknown, min: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
    throw inputError(operation, `The ${what} must be an integer ≥ ${min} (got ${describe(v)}).`);
  }
  return v;
}

/** Date or date-time text → the ISO text sent; whether end > start is the service's call (§7.4). */
export function toIsoDate(operation: string, what: string, v: Date | string): string {
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) throw inputError(operation, `The ${what} date is invalid.`);
    return v.toISOString();
  }
  if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) {
    throw inputError(operation, `The ${what} must be a Date or an ISO-8601 date-time (got ${describe(v)}).`);
  }
  return v;
}

/**
 * Never waits to open: a FIFO named by mistake is refused as not a regular file instead of holding a
 * thread until a writer comes. A regular file opens as with 'r'.
 */
const READ_FLAGS = constants.O_NONBLOCK === undefined ? 'r' : constants.O_RDONLY | constants.O_NONBLOCK;

/**
 * A readable regular file, opened, with its size; or an input error saying what is wrong with the
 * path. The caller closes it. One open and one fstat: a stat, an open to prove readability and an
 * open to read were three waits on the thread pool before the first byte of every upload.
 */
export async function openReadableFile(operation: string, path: string): Promise<{ file: FileHandle; size: number }> {
  if (typeof path !== 'string' || path === '') throw inputError(operation, 'A file path is required.');
  let file: FileHandle | undefined;
  try {
    // Opening proves readability where access() cannot (root, ACLs, Windows sharing locks).
    file = await open(path, READ_FLAGS);
    const st = await file.stat();
    if (!st.isFile()) throw notRegular(operation, path, st.isDirectory());
    return { file, size: st.size };
  } catch (e) {
    await file?.close().catch(() => undefined);
    if (e instanceof Error && e.name === 'ServiceError') throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EISDIR') throw notRegular(operation, path, true);
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EACCES' || code === 'EPERM'
          ? 'cannot be read (permission denied)'
          : `cannot be read (${code ?? String(e)})`;
    throw inputError(operation, `${path} ${why}.`);
  }
}

const notRegular = (operation: string, path: string, folder: boolean): Error =>
  inputError(operation, `${path} is not a regular file${folder ? ' (it is a folder)' : ''}.`);

function describe(v: unknown): string {
  if (typeof v === 'string') return v.length > 60 ? `"${v.slice(0, 57)}…"` : `"${v}"`;
  return String(v);
}
