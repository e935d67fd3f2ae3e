// Thin HTTP helpers for the sandbox tests: real requests over loopback, no mocking.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { API_PREFIX, SANDBOX } from '../../main/service/policy.js';
import type { StreamComponentsDto, StreamDto } from '../../main/service/types.js';

export const AUTH = { authorization: `Basic ${SANDBOX.apiKey}` };

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function call<T = unknown>(base: string, path: string, init: RequestInit = {}): Promise<Answer<T>> {
  const r = await fetch(base + path, { ...init, headers: { ...AUTH, ...(init.headers as Record<string, string>) } });
  const text = await r.text();
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    /* non-JSON bodies stay text */
  }
  return { status: r.status, headers: r.headers, body: body as T, text };
}

export function uploadPath(params: Record<string, string | string[]>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const x of Array.isArray(v) ? v : [v]) q.append(k, x);
  return `${API_PREFIX.gateway}/upload?${q.toString()}`;
}

export interface UploadOptions {
  template?: string;
  id?: string;
  persist?: boolean;
  params?: Record<string, string | string[]>;
  headers?: Record<string, string>;
}

/** Uploads a file (or bytes) as application/octet-stream. */
export async function upload(base: string, body: string | Buffer, o: UploadOptions = {}): Promise<Answer<StreamDto>> {
  const bytes = typeof body === 'string' ? await readFile(body) : body;
  const params: Record<string, string | string[]> = {
    streamConfigurationTemplateId: o.template ?? '668115d123bca7e3509723d4',
    id: o.id ?? randomUUID(),
    ...(o.persist === false ? {} : { persist: 'true' }),
    ...o.params,
  };
  return call<StreamDto>(base, uploadPath(params), {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', ...o.headers },
    body: new Uint8Array(bytes),
  });
}

export async function getStream(base: string, id: string): Promise<StreamDto> {
  const r = await call<StreamDto>(base, `${API_PREFIX.stream}/streams/${id}`);
  if (r.status !== 200) throw new Error(`GET stream ${id}: ${r.status} ${r.text}`);
  return r.body;
}

export async function components(base: string, id: string): Promise<StreamComponentsDto> {
  return (await call<StreamComponentsDto>(base, `${API_PREFIX.stream}/streams/${id}/components`)).body;
}

/** Polls until the stream leaves READY (or the deadline passes). */
export async function waitFinished(base: string, id: string, timeoutMs = 10_000): Promise<StreamDto> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await call<StreamDto>(base, `${API_PREFIX.stream}/streams/${id}`);
    // A busy service (the realistic profile's occasional 503) is asked again, as the client does.
    if (r.status === 503 && Date.now() <= deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    if (r.status !== 200) throw new Error(`GET stream ${id}: ${r.status} ${r.text}`);
    const s = r.body;
    if (s.state !== 'READY' || Date.now() > deadline) return s;
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const exportJson = <T = Record<string, unknown>>(base: string, id: string, extra = ''): Promise<Answer<T>> =>
  call<T>(base, `${API_PREFIX.export}/export/JSON?streams=${id}${extra}`);
