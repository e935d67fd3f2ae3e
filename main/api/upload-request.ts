// What an upload sends besides the bytes (§4.2–§4.4): query parameters, patches, webhooks, and the
// choice between the query form and the multipart form. Pure, so it is tested without a network.
import { inputError } from './error-mapping.js';
import { MULTIPART, RESERVED_UPLOAD_KEYS } from '../service/policy.js';
import { buildQuery, patchJsonValue, patchQueryPairs, type ParamValue } from './query.js';
import { findTemplate } from '../service/templates.js';

export interface UploadParams {
  templateId: string;
  streamId: string;
  name: string;
  groupId?: string;
  /** Default true: only persisted streams can be exported (§4.2). */
  persist?: boolean;
  persistTags?: readonly string[];
  matchPersistTags?: 'ALL' | 'ANY';
  /** Template parameters (patches): `language: ['en', 'de']`, `summary: true`, `ask0: '…'`. */
  params?: Readonly<Record<string, ParamValue>>;
  /** Dynamic webhooks: URL → event keys (`stream.completed`, `stream.*`, `*`; empty = every event). */
  webhooks?: Readonly<Record<string, readonly string[]>>;
  /** true/false forces the form; absent chooses (§15.2). */
  multipart?: boolean;
}

export interface UploadPlan {
  query: Array<[string, string]>;
  /** JSON text of HttpStreamConfigurationDto when multipart was chosen. */
  multipartConfiguration?: string;
}

/** A patch key that collides with a documented parameter is marked explicitly (§4.3). */
function patchKey(key: string): string {
  return RESERVED_UPLOAD_KEYS.includes(key) || key.startsWith('webhook.') ? `patches.${key}` : key;
}

/** `stream.completed` → `webhook.stream.completed`, `stream.*` → `webhook.stream`, `*` → `webhook` (§10.5). */
export function webhookQueryKey(event: string): string {
  const e = event.replace(/\.\*$/, '');
  return e === '*' || e === '' ? 'webhook' : `webhook.${e}`;
}

function documented(p: UploadParams): Array<[string, string]> {
  const q: Array<[string, string]> = [
    ['streamConfigurationTemplateId', p.templateId],
    ['id', p.streamId],
    ['name', p.name],
    ['persist', String(p.persist ?? true)],
  ];
  if (p.groupId !== undefined) q.push(['groupId', p.groupId]);
  for (const t of p.persistTags ?? []) q.push(['persistTags', t]);
  if (p.matchPersistTags !== undefined) q.push(['matchPersistTags', p.matchPersistTags]);
  return q;
}

function isLong(templateId: string, key: string, value: ParamValue): boolean {
  const spec = findTemplate(templateId)?.params.find((s) => s.name === key);
  const values = Array.isArray(value) ? value : [value];
  if (spec?.longText && values.some((v) => typeof v === 'string' && v !== '')) return true;
  return values.some((v) => typeof v === 'string' && v.length > MULTIPART.longValueChars);
}

export function planUpload(p: UploadParams): UploadPlan {
  const params = Object.entries(p.params ?? {});
  const webhooks = Object.entries(p.webhooks ?? {});
  for (const [k, v] of params) {
    if (k === '') throw inputError('upload', 'A template parameter has an empty name.');
    const values = Array.isArray(v) ? v : [v];
    if (
      values.some(
        (x) => !['string', 'number', 'boolean'].includes(typeof x) || (typeof x === 'number' && !Number.isFinite(x)),
      )
    ) {
      throw inputError('upload', `Template parameter "${k}" must be a string, number, boolean or an array of them.`);
    }
  }

  const patchPairs = params.flatMap(([k, v]) => patchQueryPairs(patchKey(k), v));
  const hookPairs = webhooks.flatMap(([url, events]) =>
    (events.length ? events : ['*']).map((e): [string, string] => [webhookQueryKey(e), url]),
  );
  const queryForm = [...documented(p), ...hookPairs, ...patchPairs];

  const multipart =
    p.multipart ??
    (params.some(([k, v]) => isLong(p.templateId, k, v)) ||
      buildQuery(queryForm).length > MULTIPART.queryThresholdChars);
  if (!multipart) return { query: queryForm };

  const configuration: { patches: Record<string, unknown>; webhook?: Record<string, string[]> } = {
    patches: Object.fromEntries(params.map(([k, v]) => [k, patchJsonValue(v)])),
  };
  if (webhooks.length)
    configuration.webhook = Object.fromEntries(webhooks.map(([u, ev]) => [u, ev.length ? [...ev] : ['*']]));
  const text = JSON.stringify(configuration);
  if (Buffer.byteLength(text) > MULTIPART.configurationMaxBytes) {
    throw inputError(
      'upload',
      `The upload configuration is ${Buffer.byteLength(text).toLocaleString('en-US')} bytes; the service accepts at most ${MULTIPART.configurationMaxBytes.toLocaleString('en-US')} (1 MB): shorten the prompts, formats or glossary.`,
    );
  }
  return { query: documented(p), multipartConfiguration: text };
}

/** Multipart framing around the data part (§4.4c, C9): configuration first, then the file. */
export function multipartFraming(
  configuration: string,
  fileName: string,
  boundary: string,
): { head: Buffer; tail: Buffer } {
  // HTML's form encoding for names: quote and line breaks percent-escaped.
  const safeName = fileName.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const names = MULTIPART.partNames;
  const head =
    `--${boundary}\r\n` +
    `Content-Disposition: form-data; name="${names.configuration}"\r\n` +
    `Content-Type: application/json\r\n\r\n` +
    `${configuration}\r\n` +
    `--${boundary}\r\n` +
    `Content-Disposition: form-data; name="${names.file}"; filename="${safeName}"\r\n` +
    `Content-Type: application/octet-stream\r\n\r\n`;
  return { head: Buffer.from(head, 'utf8'), tail: Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8') };
}
