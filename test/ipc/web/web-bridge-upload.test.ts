// Browser uploads into the inbox: an upload cut off mid-body leaves nothing behind (no partial
// file, no empty folder, no job), whatever its form; the bridge goes on serving.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WEB } from '../../../preload/contract.js';
import { startWebBridge, type WebBridge } from '../../../main/ipc/web/web-bridge.js';
import { pcmWav } from '../../helpers/media.js';
import { openEnv, type Env } from '../helpers.js';
import { openRequest } from './raw-http.js';

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

const inbox = () => path.join(env.stateDir, 'inbox');

/** Every file under the inbox with its size, and every folder in it. */
async function inboxContents(): Promise<{ dirs: string[]; files: Array<[string, number]> }> {
  const dirs = await readdir(inbox()).catch(() => [] as string[]);
  const files: Array<[string, number]> = [];
  for (const d of dirs) {
    for (const f of await readdir(path.join(inbox(), d)).catch(() => [] as string[])) {
      // A result being written sits under a temporary name that is renamed away at any moment.
      const size = await stat(path.join(inbox(), d, f)).then(
        (s) => s.size,
        (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? undefined : Promise.reject(e)),
      );
      if (size !== undefined) files.push([`${d}/${f}`, size]);
    }
  }
  return { dirs, files };
}

/** Polls `f` until it holds or `ms` pass; answers the last value either way. */
async function settle<T>(f: () => Promise<T>, holds: (v: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (holds(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}

const CHUNK = Buffer.alloc(256 * 1024, 7);

/** A tiny WAV (100 ms of a tone): dropped files must be media to be kept. */
const WAV = pcmWav(1600, { sample: (i) => Math.round(Math.sin(i / 3) * 20000) });

describe('names of dropped files', () => {
  const NAMES = [
    'Piața – take 2.wav',
    'café naïve Ærø.wav',
    '🎙️ interview 🎧.wav',
    '会议记录 第一部分.wav',
    'مقابلة صوتية.wav',
    'שיחה\u200f עם דנה.wav',
    'Ångström e\u0301te\u0301.wav', // decomposed accents stay decomposed
  ];

  it('keeps every name exactly on disk, in a multipart upload as in a raw one', async () => {
    const form = new FormData();
    for (const name of NAMES) form.append('files', new Blob([WAV]), name);
    // Browsers send the name as raw UTF-8 in Content-Disposition (no filename*).
    const multi = await fetch(`${web.url}${WEB.uploadPath.slice(1)}`, {
      method: 'POST',
      headers: { [WEB.tokenHeader]: web.token },
      body: form,
    });
    const saved = (await multi.json()) as { ok: boolean; value?: Array<{ path: string }> };
    expect(saved.ok).toBe(true);
    expect(saved.value?.map((o) => path.basename(o.path))).toEqual(NAMES);
    // The sources (their results may already be landing beside them: they are real media).
    const onDisk = (await inboxContents()).files.map(([f]) => path.basename(f)).filter((f) => f.endsWith('.wav'));
    expect(onDisk.sort()).toEqual([...NAMES].sort());
    for (const name of NAMES) {
      const raw = await fetch(`${web.url}${WEB.uploadPath.slice(1)}?name=${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: { [WEB.tokenHeader]: web.token, 'content-type': 'application/octet-stream' },
        body: WAV,
      });
      const one = (await raw.json()) as { value?: Array<{ path: string }> };
      expect(path.basename(one.value?.[0]?.path ?? '')).toBe(name);
    }
  });

  it('shortens a name too long for the file system on a whole character, keeping the extension', async () => {
    const stem = '长'.repeat(60) + '👩‍👩‍👧'.repeat(20); // 180 + 360 bytes
    const form = new FormData();
    form.append('files', new Blob([WAV]), `${stem}.wav`);
    const res = await fetch(`${web.url}${WEB.uploadPath.slice(1)}`, {
      method: 'POST',
      headers: { [WEB.tokenHeader]: web.token },
      body: form,
    });
    const body = (await res.json()) as { ok: boolean; value?: Array<{ path: string }> };
    expect(body.ok).toBe(true);
    const saved = path.basename(body.value?.[0]?.path ?? '');
    expect(Buffer.byteLength(saved)).toBeLessThanOrEqual(240);
    expect(saved.endsWith('.wav')).toBe(true);
    const kept = saved.slice(0, -'.wav'.length);
    expect(stem.startsWith(kept)).toBe(true);
    expect(kept.length).toBeGreaterThan(60);
    expect((kept.length - 60) % '👩‍👩‍👧'.length).toBe(0); // no family split apart
  });
});

describe('dropped files that are not media', () => {
  it('are refused at once, named with the reason, and not kept in the inbox; the media beside them is queued', async () => {
    const form = new FormData();
    form.append('files', new Blob(['Meeting notes\nPiața at 10:00\n']), 'notes – Piața.wav');
    form.append('files', new Blob([]), 'empty.mp4');
    form.append('files', new Blob(['%PDF-1.4']), 'brief.pdf');
    form.append('files', new Blob([WAV.subarray(0, 1000)]), 'cut.wav');
    form.append('files', new Blob([WAV]), 'good.wav');
    const res = await fetch(`${web.url}${WEB.uploadPath.slice(1)}`, {
      method: 'POST',
      headers: { [WEB.tokenHeader]: web.token },
      body: form,
    });
    const body = (await res.json()) as {
      ok: boolean;
      value: Array<{ path: string; outcome: string; message?: string }>;
    };
    expect(body.ok).toBe(true);
    const by = Object.fromEntries(body.value.map((o) => [path.basename(o.path), o]));
    expect(by['notes – Piața.wav']).toMatchObject({
      outcome: 'rejected',
      message: expect.stringMatching(/^notes – Piața\.wav holds text, not audio or video/),
    });
    expect(by['empty.mp4']).toMatchObject({ outcome: 'rejected', message: expect.stringMatching(/empty/) });
    expect(by['brief.pdf']).toMatchObject({
      outcome: 'rejected',
      message: 'brief.pdf is not an audio or video file (.pdf); it was not added.',
    });
    expect(by['cut.wav']).toMatchObject({
      outcome: 'rejected',
      message: expect.stringMatching(/^cut\.wav is cut short/),
    });
    expect(by['good.wav']).toMatchObject({ outcome: 'added' });
    expect((await inboxContents()).files.map(([f]) => path.basename(f))).toEqual(['good.wav']);
    expect(env.rt.queue.jobs().map((j) => path.basename(j.source.path))).toEqual(['good.wav']);
  });
});

describe('aborted browser uploads', () => {
  it('a multipart upload cut mid-file leaves no file or folder, not even of the files already complete', async () => {
    const b = 'cut-boundary';
    const part = (name: string) =>
      `--${b}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\n` +
      'Content-Type: audio/wav\r\n\r\n';
    const up = await openRequest(
      web.port,
      WEB.uploadPath,
      { [WEB.tokenHeader]: web.token, 'content-type': `multipart/form-data; boundary=${b}` },
      50 * 1024 * 1024,
    );
    await up.send(`${part('first.wav')}`);
    await up.send(CHUNK);
    await up.send(`\r\n${part('second.wav')}`);
    await up.send(CHUNK);
    // Both files are on disk, the second one partly: now the tab closes.
    const during = await settle(inboxContents, (c) => c.files.length === 2 && c.files.every(([, n]) => n > 0), 15_000);
    expect(during.files.map(([f]) => path.basename(f)).sort()).toEqual(['first.wav', 'second.wav']);
    await up.cut();
    const after = await settle(inboxContents, (c) => c.dirs.length === 0, 5_000);
    expect(after).toEqual({ dirs: [], files: [] });
    expect(env.rt.queue.jobs()).toEqual([]);
  });

  it('a raw upload cut mid-body leaves no file or folder', async () => {
    const up = await openRequest(
      web.port,
      `${WEB.uploadPath}?name=raw.wav`,
      { [WEB.tokenHeader]: web.token, 'content-type': 'application/octet-stream' },
      50 * 1024 * 1024,
    );
    await up.send(CHUNK);
    const during = await settle(inboxContents, (c) => (c.files[0]?.[1] ?? 0) > 0, 15_000);
    expect(during.files.map(([f]) => path.basename(f))).toEqual(['raw.wav']);
    await up.cut();
    const after = await settle(inboxContents, (c) => c.dirs.length === 0, 5_000);
    expect(after).toEqual({ dirs: [], files: [] });
    expect(env.rt.queue.jobs()).toEqual([]);
    // The bridge still answers.
    const res = await fetch(`${web.url}api/app:info`, { method: 'POST', headers: { [WEB.tokenHeader]: web.token } });
    expect(res.status).toBe(200);
  });
});
