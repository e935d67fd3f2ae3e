// Turns whatever came back (or did not) into the one ServiceError of the client, with a message a
// person can act on. Messages name the service and its origin+path, never the query string (it
// may carry prompts) and never credentials (they only ever travel in headers).
import { ServiceError, type ErrorClass } from '../service/errors.js';
import { ERROR_EXCERPT_CHARS } from '../service/policy.js';
import type { ErrorResponse } from '../service/types.js';

export interface ErrorContext {
  /** Human name of the service, e.g. `stream-service`. */
  service: string;
  /** Origin and path, without query. */
  where: string;
  operation: string;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function statusLabel(status: number): string {
  const t = STATUS_TEXT[status];
  return t ? `${status} ${t}` : String(status);
}

/** Visible text of an HTML page (or any text), whitespace collapsed, cut to the excerpt length. */
export function textExcerpt(body: string, max = ERROR_EXCERPT_CHARS): string {
  const text = body
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/gi, ' ')
    .replace(/&amp;/gi, '&')
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&quot;/gi, '"')
    .replace(/&#39;/gi, "'")
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

/** Keeps the nested errors that look like ErrorResponses (C20), filling what is missing. */
function nested(v: unknown): ErrorResponse[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isRecord).map((n) => ({
    statusCode: typeof n.statusCode === 'number' ? n.statusCode : 0,
    title: str(n.title) ?? '',
    message: str(n.message) ?? '',
    internalErrorName: str(n.internalErrorName) ?? '',
    nestedErrors: nested(n.nestedErrors),
  }));
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A non-2xx answer → ServiceError (§8.1, and the OAuth body of the token endpoint, §2.2). */
export function errorFromResponse(
  status: number,
  bodyText: string,
  ctx: ErrorContext,
  retryAfterMs?: number,
  classHint?: ErrorClass,
): ServiceError {
  const base = { kind: 'http' as const, statusCode: status, operation: ctx.operation, retryAfterMs, classHint };
  const label = `${ctx.service} answered ${statusLabel(status)}`;
  const parsed = bodyText.trim() ? tryJson(bodyText) : undefined;
  if (isRecord(parsed)) {
    const title = str(parsed.title);
    const message = str(parsed.message);
    const internalErrorName = str(parsed.internalErrorName);
    if (title || message || internalErrorName) {
      return new ServiceError({
        ...base,
        message: message ?? title ?? `${label} (${internalErrorName})`,
        title,
        internalErrorName,
        nestedErrors: nested(parsed.nestedErrors),
      });
    }
    const oauthError = str(parsed.error);
    if (oauthError) {
      const desc = str(parsed.error_description);
      return new ServiceError({
        ...base,
        message: desc ? `${desc} (${oauthError})` : `${label}: ${oauthError}`,
        title: oauthError,
      });
    }
  }
  if (!bodyText.trim()) {
    return new ServiceError({ ...base, message: `${label} with an empty body (${ctx.operation}, ${ctx.where}).` });
  }
  const excerpt = textExcerpt(bodyText);
  return new ServiceError({
    ...base,
    message: `${label} (${ctx.operation}, ${ctx.where}): ${excerpt || 'a body with no readable text'}`,
    bodyExcerpt: excerpt,
  });
}

/** The low-level code of an undici / Node failure, looking through `cause` chains. */
export function errorCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; isRecord(e) && depth < 5; e = e.cause, depth++) {
    if (typeof e.code === 'string') return e.code;
    if (Array.isArray(e.errors)) {
      const inner = e.errors.map(errorCode).find(Boolean);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** No answer → ServiceError kind `network`, with what to check. */
export function errorFromNetwork(err: unknown, ctx: ErrorContext): ServiceError {
  const code = errorCode(err) ?? 'UNKNOWN';
  const reach = `Could not reach ${ctx.service} at ${ctx.where}`;
  let message: string;
  switch (code) {
    case 'ECONNREFUSED':
      message = `${reach}: connection refused. Is the service running and the URL right?`;
      break;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NODATA':
    case 'EAI_NONAME':
      message = `${reach}: the host name could not be resolved (DNS). Check the URL and your network connection.`;
      break;
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      message = `The connection to ${ctx.service} at ${ctx.where} was closed before an answer arrived (${ctx.operation}). A proxy or the service dropped it; try again.`;
      break;
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      message = `${reach}: the connection timed out. Check your network, proxy or firewall.`;
      break;
    case 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH':
      message = `The file changed size while it was being sent to ${ctx.service} (${ctx.operation}); upload it again once it is complete.`;
      break;
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      message = `${reach}: its TLS certificate was not accepted (${code}). Check the URL.`;
      break;
    default:
      message = `${reach} (${ctx.operation}): ${err instanceof Error ? err.message : String(err)} [${code}]`;
  }
  return new ServiceError({ kind: 'network', message, code, operation: ctx.operation, cause: err });
}

export function timeoutError(ms: number, ctx: ErrorContext, idle: boolean, code?: string): ServiceError {
  const secs = ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
  const what = idle ? `made no progress for ${secs}` : `did not answer within ${secs}`;
  return new ServiceError({
    kind: 'timeout',
    message: `${ctx.service} at ${ctx.where} ${what} (${ctx.operation}). The service may be overloaded or the network slow; try again later.`,
    code,
    operation: ctx.operation,
  });
}

export function abortedError(ctx: ErrorContext, cause?: unknown): ServiceError {
  return new ServiceError({
    kind: 'aborted',
    message: `${ctx.operation} was cancelled.`,
    operation: ctx.operation,
    cause,
  });
}

export function inputError(operation: string, message: string): ServiceError {
  return new ServiceError({ kind: 'input', message, operation });
}
