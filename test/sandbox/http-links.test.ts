// Link bodies (§4.4 b, C8): the sandbox fetches http and https links from a local file server and
// processes their media; links that cannot be fetched, or are not media, fail the stream with the
// reason. Real HTTP both ways, no mocking.
import { randomUUID } from 'node:crypto';
import { writeFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX, SANDBOX } from '../../main/service/policy.js';
import { TEMPLATE_IDS } from '../../main/service/templates.js';
import type { StreamDto, StreamUsageDto } from '../../main/service/types.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeDurationTaggedWav, makeMediaDir, makeMp4, makeSpeechWav } from '../helpers/media.js';
import { makeCertificate, startMediaServer, type Certificate, type MediaServer } from '../helpers/media-server.js';
import { call, components, exportJson, upload, waitFinished } from './client.js';

let sb: Sandbox;
let dir: string;
let cert: Certificate;
let http: MediaServer;
let https: MediaServer;

beforeAll(async () => {
  dir = await makeMediaDir();
  cert = await makeCertificate(dir);
  await makeMp4(dir, 'clip.mp4', 2);
  await makeSpeechWav(dir, 'speech.wav', 'A link fetched by the sandbox.');
  await makeDurationTaggedWav(dir, 'long.wav', 240_000);
  await writeFile(join(dir, 'notes.txt'), 'These are notes, not audio or video.\n'.repeat(200));
  http = await startMediaServer(dir);
  https = await startMediaServer(dir, cert);
  sb = await startSandbox({ speedFactor: 0.01, linkFetch: { timeoutMs: 400, ca: cert.cert } });
});
afterAll(async () => {
  await sb.close();
  await http.close();
  await https.close();
  await rm(dir, { recursive: true, force: true });
});

const sendLink = (link: string) => upload(sb.url, Buffer.from(link, 'utf8'));

const failure = async (id: string): Promise<string | null> => {
  const c = await components(sb.url, id);
  return c.processors[0]?.stateDescription ?? null;
};

const audioLength = async (id: string): Promise<number> => {
  const u = await call<StreamUsageDto>(sb.url, `${API_PREFIX.usage}/usage/streams/${id}`);
  return u.body.processors.find((p) => p.processorId === 'transcriber')?.processedAudioLength ?? -1;
};

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('links the sandbox can fetch', () => {
  it('an http link to an mp4 is fetched, processed and exported like an upload of its bytes', async () => {
    const r = await sendLink(`${http.url}/clip.mp4`);
    expect(r.status).toBe(200);
    const done = await waitFinished(sb.url, r.body.streamId);
    expect(done.state).toBe('COMPLETED');
    expect(http.requests).toContain('/clip.mp4');
    const len = await audioLength(r.body.streamId);
    expect(len).toBeGreaterThan(1900);
    expect(len).toBeLessThan(2200);
    const exp = await exportJson(sb.url, r.body.streamId);
    expect(exp.status).toBe(200);
  });

  it('an https link served with a certificate the sandbox was told to trust', async () => {
    const r = await sendLink(`${https.url}/speech.wav`);
    const done = await waitFinished(sb.url, r.body.streamId);
    expect(done.state).toBe('COMPLETED');
    const exp = await exportJson<{ transcription?: { text?: string } }>(sb.url, r.body.streamId);
    expect(exp.status).toBe(200);
    expect(exp.body.transcription?.text).toContain(SANDBOX.simulatedNotice);
  });

  it('the same media by link and by upload gives the same simulated transcript', async () => {
    const byLink = await sendLink(`${http.url}/speech.wav`);
    const byBytes = await upload(sb.url, join(dir, 'speech.wav'));
    await waitFinished(sb.url, byLink.body.streamId);
    await waitFinished(sb.url, byBytes.body.streamId);
    const a = await exportJson<{ transcription?: { text?: string } }>(sb.url, byLink.body.streamId);
    const b = await exportJson<{ transcription?: { text?: string } }>(sb.url, byBytes.body.streamId);
    expect(a.body.transcription?.text).toBe(b.body.transcription?.text);
  });

  it('the duration tag (bench/test fixtures) makes a one-second file count as 4 minutes', async () => {
    const r = await sendLink(`${http.url}/long.wav`);
    const done = await waitFinished(sb.url, r.body.streamId, 60_000);
    expect(done.state).toBe('COMPLETED');
    expect(await audioLength(r.body.streamId)).toBe(240_000);
  });
});

describe('links the sandbox cannot use fail the stream with the reason', () => {
  it('404: the status, and the link without its query (a pre-signed link carries its signature there)', async () => {
    const r = await sendLink(`${http.url}/gone.mp4?X-Amz-Signature=secret123`);
    expect(r.status).toBe(200);
    const done = await waitFinished(sb.url, r.body.streamId);
    expect([done.state, done.stateDescription]).toEqual(['FAILED', null]);
    const why = await failure(r.body.streamId);
    expect(why).toBe(
      `[InternalErrorName.PROCESSOR_TRANSCODING_ERROR] MediaFetchException: could not fetch ${http.url}/gone.mp4: HTTP 404 Not Found`,
    );
    expect(why).not.toContain('secret123');
  });

  it('connection refused', async () => {
    const r = await sendLink(`http://127.0.0.1:${await closedPort()}/clip.mp4`);
    expect((await waitFinished(sb.url, r.body.streamId)).state).toBe('FAILED');
    expect(await failure(r.body.streamId)).toMatch(/MediaFetchException: could not fetch .*: connection refused$/);
  });

  it('a server that never answers: timeout', async () => {
    const r = await sendLink(`${http.url}/silent/clip.mp4`);
    expect((await waitFinished(sb.url, r.body.streamId)).state).toBe('FAILED');
    expect(await failure(r.body.streamId)).toMatch(/: no answer within 0\.4 s$/);
  });

  it('a link whose content is not media fails like non-media bytes do', async () => {
    const r = await sendLink(`${http.url}/notes.txt`);
    expect((await waitFinished(sb.url, r.body.streamId)).state).toBe('FAILED');
    expect(await failure(r.body.streamId)).toBe(
      `[InternalErrorName.PROCESSOR_TRANSCODING_ERROR] JobFailedException: Invalid data found when processing input (the link is not audio or video: ${http.url}/notes.txt)`,
    );
  });

  it('an https link with a certificate nobody trusts', async () => {
    const strict = await startSandbox({ speedFactor: 0.01 });
    try {
      const r = await upload(strict.url, Buffer.from(`${https.url}/clip.mp4`));
      expect((await waitFinished(strict.url, r.body.streamId)).state).toBe('FAILED');
      const c = await components(strict.url, r.body.streamId);
      expect(c.processors[0]?.stateDescription).toMatch(/certificate is not trusted/);
    } finally {
      await strict.close();
    }
  });
});

describe("the service's own link sample (§4.4 b, §15.3), unmodified", () => {
  it('client id/secret headers, link text as octet-stream, polling by id every interval, then the JSON export', async () => {
    // What the older sample does: no Sluice code, plain HTTP as documented.
    const id = randomUUID();
    const headers = {
      'X-Client-Id': SANDBOX.clientId,
      'X-Client-Secret': SANDBOX.clientSecret,
      Accept: 'application/json',
    };
    const q = new URLSearchParams({ streamConfigurationTemplateId: TEMPLATE_IDS.transcription, id, persist: 'true' });
    const created = await fetch(`${sb.url}${API_PREFIX.gateway}/upload?${q.toString()}`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/octet-stream' },
      body: `${http.url}/speech.wav`,
    });
    expect(created.status).toBe(200);
    expect(((await created.json()) as StreamDto).state).toBe('READY');
    let state = 'READY';
    for (let i = 0; i < 200 && state === 'READY'; i++) {
      await new Promise((r) => setTimeout(r, 25));
      const s = await fetch(`${sb.url}${API_PREFIX.stream}/streams/${id}`, { headers });
      state = ((await s.json()) as StreamDto).state;
    }
    expect(state).toBe('COMPLETED');
    const exported = await fetch(`${sb.url}${API_PREFIX.export}/export/JSON?streams=${id}`, { headers });
    expect(exported.status).toBe(200);
    const json = (await exported.json()) as { transcription?: { text?: string } };
    expect(json.transcription?.text).toContain(SANDBOX.simulatedNotice);
  });
});
