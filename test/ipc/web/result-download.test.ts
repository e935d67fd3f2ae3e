// Results of files dropped into the browser, downloaded through the bridge: exact Unicode names
// (RFC 5987 filename*), the bytes on disk, the token required, nothing but a job's own results.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WEB } from '../../../preload/contract.js';
import { contentDisposition } from '../../../main/ipc/web/result-download.js';
import { startWebBridge, type WebBridge } from '../../../main/ipc/web/web-bridge.js';
import { makeToneWav } from '../../helpers/media.js';
import { openEnv, until, type Env } from '../helpers.js';

let env: Env;
let web: WebBridge;

beforeEach(async () => {
  env = await openEnv();
  web = await startWebBridge(env.rt, env.platform, { flushIntervalMs: 20, statsIntervalMs: 50 });
});
afterEach(async () => {
  await web.close();
  await env.close();
});

/** The name a browser saves under: RFC 6266 prefers filename* over filename. */
function savedName(disposition: string | null): string | undefined {
  const m = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '');
  return m?.[1] ? decodeURIComponent(m[1]) : undefined;
}

const download = (query: string, token?: string) =>
  fetch(`${web.url}${WEB.downloadPath.slice(1)}?${query}`, { headers: token ? { [WEB.tokenHeader]: token } : {} });

describe('downloading results of dropped files', () => {
  it('sends each result with its exact name and bytes, only with the token', async () => {
    const name = 'Piața – take 2 🎙️ 会议.wav';
    const wav = await makeToneWav(env.dir, 'tone.wav', 1);
    const form = new FormData();
    form.append('files', new Blob([await readFile(wav)]), name);
    const res = await fetch(`${web.url}${WEB.uploadPath.slice(1)}`, {
      method: 'POST',
      headers: { [WEB.tokenHeader]: web.token },
      body: form,
    });
    const body = (await res.json()) as { value: Array<{ jobId: string }> };
    const jobId = body.value[0]!.jobId;
    const job = await until(() => {
      const j = env.rt.queue.job(jobId);
      return j?.state === 'completed' && j;
    });
    const json = job.results.find((r) => r.format === 'json')!;
    expect(path.dirname(json.path).startsWith(path.join(env.stateDir, 'inbox'))).toBe(true);

    const got = await download(`jobId=${jobId}&format=json`, web.token);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toContain('application/json');
    expect(got.headers.get('cache-control')).toBe('no-store');
    expect(savedName(got.headers.get('content-disposition'))).toBe('Piața – take 2 🎙️ 会议.json');
    expect(Buffer.from(await got.arrayBuffer()).equals(await readFile(json.path))).toBe(true);

    expect((await download(`jobId=${jobId}&format=json`)).status).toBe(401);
    expect((await download(`jobId=${jobId}&format=json`, `x${web.token}`)).status).toBe(401);
    expect((await download(`jobId=${jobId}&format=docx`, web.token)).status).toBe(404);
    expect((await download(`jobId=nope&format=json`, web.token)).status).toBe(404);
    expect((await download(`format=json`, web.token)).status).toBe(400);
  });

  it('writes Content-Disposition with an ASCII stand-in and the exact name', () => {
    expect(contentDisposition('café "naïve".srt')).toBe(
      `attachment; filename="cafe _naive_.srt"; filename*=UTF-8''caf%C3%A9%20%22na%C3%AFve%22.srt`,
    );
  });
});
