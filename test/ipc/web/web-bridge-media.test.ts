// The review view's player over the web bridge: a job's source streamed with range requests, a
// 2 GB (sparse) file included, behind a per-job signature; everything else refused. The same range
// code answers Electron's app protocol, tested here without Electron the way its handler uses it.
import { Readable } from 'node:stream';
import { open, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB, type Result, type TranscriptView } from '../../../preload/contract.js';
import { startWebBridge, type WebBridge } from '../../../main/ipc/web/web-bridge.js';
import { mediaSignature } from '../../../main/ipc/web/access-guard.js';
import { mediaResponse, parseRange } from '../../../main/ipc/media-response.js';
import { makeToneWav } from '../../helpers/media.js';
import { openEnv, until, type Env } from '../helpers.js';
import { rawRequest } from './raw-http.js';

let env: Env;
let web: WebBridge;
let jobId = '';
let source = '';
const SIZE = 2 * 1024 ** 3 + 12_345; // past 2 GiB: offsets no longer fit 31 bits
const MARK = 'END-OF-THE-RECORDING';

async function call<T>(channel: string, params: unknown): Promise<Result<T>> {
  const res = await fetch(`${web.url}api/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [WEB.tokenHeader]: web.token },
    body: JSON.stringify(params),
  });
  return (await res.json()) as Result<T>;
}

beforeAll(async () => {
  env = await openEnv();
  web = await startWebBridge(env.rt, env.platform, { flushIntervalMs: 20, statsIntervalMs: 50 });
  const dir = path.join(env.dir, 'media');
  await mkdir(dir);
  source = await makeToneWav(dir, 'long.wav', 2);
  const added = await env.rt.queue.addPaths([source]);
  jobId = added[0]?.outcome === 'added' ? added[0].jobId : '';
  await until(() => env.rt.queue.job(jobId)?.state === 'completed');
  // The recording grows to 2 GB without using the disk: a sparse file with a mark at its end.
  const h = await open(source, 'r+');
  await h.truncate(SIZE);
  await h.write(Buffer.from(MARK), 0, MARK.length, SIZE - MARK.length);
  await h.close();
}, 60_000);
afterAll(async () => {
  await web.close();
  await env.close();
});

describe('media over the web bridge', () => {
  it('transcript:open names a signed URL the player can load, relative to the page', async () => {
    const r = await call<TranscriptView>('transcript:open', { jobId });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.media).toMatchObject({ kind: 'audio', mimeType: 'audio/wav' });
    const url = r.value.media.kind === 'missing' ? '' : r.value.media.url;
    expect(url).toBe(`./media/${jobId}?sig=${mediaSignature(web.token, jobId)}`);
    expect(url).not.toContain(web.token);
    const res = await fetch(new URL(url, web.url), { headers: { range: 'bytes=0-3' } });
    expect(res.status).toBe(206);
    expect(await res.text()).toBe('RIFF');
  });

  it('answers a range near the end of a 2 GB file from disk, without reading it whole', async () => {
    const sig = mediaSignature(web.token, jobId);
    const before = process.memoryUsage().rss;
    const t0 = Date.now();
    const res = await fetch(`${web.url}media/${jobId}?sig=${sig}`, {
      headers: { range: `bytes=${SIZE - MARK.length}-` },
    });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes ${SIZE - MARK.length}-${SIZE - 1}/${SIZE}`);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(await res.text()).toBe(MARK);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 ** 2);

    const head = await fetch(`${web.url}media/${jobId}?sig=${sig}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(SIZE));
    const suffix = await fetch(`${web.url}media/${jobId}?sig=${sig}`, { headers: { range: 'bytes=-5' } });
    expect(await suffix.text()).toBe(MARK.slice(-5));
    const past = await fetch(`${web.url}media/${jobId}?sig=${sig}`, { headers: { range: `bytes=${SIZE}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${SIZE}`);
    await past.body?.cancel();
  });

  it('refuses a missing, wrong or borrowed signature, another site, and an unknown job', async () => {
    const port = web.port;
    const get = (target: string, headers: Record<string, string> = {}) =>
      rawRequest(port, { method: 'GET', target, headers });
    expect((await get(`/media/${jobId}`)).status).toBe(401);
    expect((await get(`/media/${jobId}?sig=nope`)).status).toBe(401);
    // The token itself is not a media signature, in the query or in the header.
    expect((await get(`/media/${jobId}?sig=${web.token}`)).status).toBe(401);
    expect((await get(`/media/${jobId}`, { [WEB.tokenHeader]: web.token })).status).toBe(401);
    // A signature opens its own job only.
    expect((await get(`/media/other?sig=${mediaSignature(web.token, jobId)}`)).status).toBe(401);
    expect((await get(`/media/..%2F..%2Fetc%2Fpasswd?sig=${mediaSignature(web.token, jobId)}`)).status).toBe(401);
    const cross = await get(`/media/${jobId}?sig=${mediaSignature(web.token, jobId)}`, {
      'sec-fetch-site': 'cross-site',
    });
    expect(cross.status).toBe(403);
    expect((await get(`/media/unknown?sig=${mediaSignature(web.token, 'unknown')}`)).status).toBe(404);
  });

  it("answers the app protocol's range from disk too: only the bytes asked for are read", async () => {
    const r = await mediaResponse(env.rt.queue, jobId, 'GET', `bytes=${SIZE - MARK.length}-`);
    expect(r.status).toBe(206);
    expect(r.headers['Content-Range']).toBe(`bytes ${SIZE - MARK.length}-${SIZE - 1}/${SIZE}`);
    expect(r.headers['Content-Length']).toBe(String(MARK.length));
    const body = r.body!;
    // As window.ts hands it to protocol.handle: a web stream inside a Response.
    const res = new Response(Readable.toWeb(body) as ReadableStream<Uint8Array>, { status: r.status });
    expect(await res.text()).toBe(MARK);
    expect(body.bytesRead).toBe(MARK.length);

    // No range: the whole file, as a stream that has read nothing until it is consumed.
    const whole = await mediaResponse(env.rt.queue, jobId, 'GET', undefined);
    expect(whole.status).toBe(200);
    expect(whole.headers['Content-Length']).toBe(String(SIZE));
    expect(whole.body!.bytesRead).toBe(0);
    whole.body!.destroy();
    expect((await mediaResponse(env.rt.queue, jobId, 'HEAD', 'bytes=0-3')).body).toBeUndefined();
    expect((await mediaResponse(env.rt.queue, 'unknown', 'GET', undefined)).status).toBe(404);
  });

  it('reads ranges as RFC 9110 does', () => {
    expect(parseRange(undefined, 10)).toBeUndefined();
    expect(parseRange('bytes=0-', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=2-4', 10)).toEqual({ start: 2, end: 4 });
    expect(parseRange('bytes=5-100', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=4-2', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,3-4', 10)).toBeUndefined();
    expect(parseRange('items=0-1', 10)).toBeUndefined();
  });
});
