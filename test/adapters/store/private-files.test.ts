// The state folder is private: created 0700, every folder in it 0700 and every file 0600 (journal,
// settings, lock, kept exports, the inbox of browser uploads and the results written there); one
// left loose by an older version is tightened at open. Real modes from stat.
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { jobIds } from '../../../main/adapters/queue/intake.js';
import { createClient } from '../../../main/api/client.js';
import { TEMPLATE_IDS } from '../../../main/service/templates.js';
import { startWebBridge } from '../../../main/ipc/web/web-bridge.js';
import { Runtime } from '../../../main/runtime/runtime.js';
import { WEB } from '../../../preload/contract.js';
import { DEFAULT_OUTPUT } from '../../../main/engine/settings.js';
import { makeToneWav } from '../../helpers/media.js';
import { allStreams } from '../../helpers/service.js';
import { openEnv, until, type Env } from '../../ipc/helpers.js';

const modeOf = async (p: string): Promise<number> => (await lstat(p)).mode & 0o777;

/** Every entry under `root` (relative path → mode), folders marked with a trailing slash. */
async function modesUnder(root: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const visit = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      const rel = path.relative(root, full);
      if (e.isDirectory()) {
        out.set(`${rel}/`, await modeOf(full));
        await visit(full);
      } else out.set(rel, await modeOf(full));
    }
  };
  await visit(root);
  return out;
}

let env: Env | undefined;
let dir: string | undefined;
beforeEach(() => {
  expect(process.umask()).toBe(0o022); // the modes below would otherwise say nothing
});
afterEach(async () => {
  await env?.close();
  env = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('a private state folder', () => {
  it('a new one is 0700 and everything Sluice puts in it 0700 (folders) or 0600 (files)', async () => {
    env = await openEnv();
    const web = await startWebBridge(env.rt, env.platform, { flushIntervalMs: 20, statsIntervalMs: 50 });
    try {
      env.rt.settings.update((s) => ({ ...s, defaults: { ...s.defaults, output: { ...s.defaults.output } } }));
      const media = path.join(env.dir, 'media');
      await mkdir(media);
      const mine = await makeToneWav(media, 'mine.wav', 1);
      const res = await fetch(`${web.url}${WEB.uploadPath.slice(1)}?name=dropped.wav`, {
        method: 'POST',
        headers: { [WEB.tokenHeader]: web.token, 'content-type': 'application/octet-stream' },
        body: await readFile(await makeToneWav(env.dir, 'dropped.wav', 1)),
      });
      const body = (await res.json()) as { ok: boolean; value: Array<{ jobId: string }> };
      expect(body.ok).toBe(true);
      const ids = [...jobIds(await env.rt.queue.addPaths([mine])), ...body.value.map((v) => v.jobId)];
      const jobs = await env.rt.queue.whenSettled(ids);
      expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed']);
      await until(() => jobs.every((j) => env!.rt.queue.job(j.id)?.results.length === DEFAULT_OUTPUT.formats.length));

      expect(await modeOf(env.stateDir)).toBe(0o700);
      const modes = await modesUnder(env.stateDir);
      const names = [...modes.keys()].map((k) => k.replace(/[0-9a-f-]{36}/g, '<id>'));
      for (const expected of [
        'jobs.jsonl',
        'settings.json',
        'engine.lock',
        'exports/',
        'exports/<id>.json',
        'inbox/',
        'inbox/<id>/',
        'inbox/<id>/dropped.wav',
        'inbox/<id>/dropped.json',
      ]) {
        expect(names).toContain(expected);
      }
      for (const [rel, mode] of modes) {
        expect([rel, mode.toString(8)]).toEqual([rel, (rel.endsWith('/') ? 0o700 : 0o600).toString(8)]);
      }
      // Beside the user's own media the result is as readable as the media is.
      expect(await modeOf(path.join(media, 'mine.json'))).toBe(0o644);
    } finally {
      await web.close();
    }
  });

  it('the export of a stream started elsewhere, kept in the state folder, is private too', async () => {
    env = await openEnv();
    const sandbox = env.rt.connection.sandbox;
    if (!sandbox) throw new Error('no sandbox');
    const client = createClient({ baseUrl: sandbox.url, credentials: { kind: 'apiKey', apiKey: 'sandbox-key' } });
    const streamId = randomUUID();
    try {
      await client.upload({
        filePath: await makeToneWav(env.dir, 'elsewhere.wav', 1),
        templateId: TEMPLATE_IDS.transcription,
        streamId,
      });
      await expect
        .poll(
          async () => (await allStreams(sandbox.url, 'sandbox-key')).find((st) => st.streamId === streamId)?.state,
          {
            timeout: 15_000,
          },
        )
        .toBe('COMPLETED');
    } finally {
      await client.close();
    }
    const file = await env.rt.results.exportExternal(streamId);
    expect(path.dirname(file)).toBe(path.join(env.stateDir, 'external'));
    expect(await modeOf(path.dirname(file))).toBe(0o700);
    expect(await modeOf(file)).toBe(0o600);
  });

  it('a result is no more readable than its source', async () => {
    env = await openEnv();
    const media = path.join(env.dir, 'media');
    await mkdir(media);
    const secret = await makeToneWav(media, 'secret.wav', 1);
    await chmod(secret, 0o600);
    const [job] = await env.rt.queue.whenSettled(jobIds(await env.rt.queue.addPaths([secret])));
    expect(job?.state).toBe('completed');
    await until(() => env!.rt.queue.job(job!.id)?.results.length === DEFAULT_OUTPUT.formats.length);
    expect(await modeOf(path.join(media, 'secret.json'))).toBe(0o600);
  });

  it('one left open by an older version is tightened at open; what links point to is left alone', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sluice-private-'));
    const state = path.join(dir, 'state');
    await mkdir(path.join(state, 'exports'), { recursive: true, mode: 0o755 });
    await mkdir(path.join(state, 'inbox', 'u1'), { recursive: true, mode: 0o755 });
    await chmod(state, 0o755);
    await writeFile(path.join(state, 'jobs.jsonl'), '{"h":"sluice-jobs","v":1}\n', { mode: 0o644 });
    await writeFile(path.join(state, 'settings.json'), '{}', { mode: 0o644 });
    await writeFile(path.join(state, 'exports', 'j1.json'), '{"transcription":{}}', { mode: 0o664 });
    await writeFile(path.join(state, 'inbox', 'u1', 'take.wav'), 'x', { mode: 0o755 });
    const outside = path.join(dir, 'outside.txt');
    await writeFile(outside, 'not Sluice’s', { mode: 0o644 });
    await symlink(outside, path.join(state, 'link.txt'));

    const rt = await Runtime.open({ stateDir: state, connection: { sandbox: true } });
    await rt.close();

    expect(await modeOf(state)).toBe(0o700);
    for (const d of ['exports', 'inbox', 'inbox/u1']) expect(await modeOf(path.join(state, d))).toBe(0o700);
    for (const f of ['jobs.jsonl', 'settings.json', 'exports/j1.json', 'inbox/u1/take.wav']) {
      expect([f, (await modeOf(path.join(state, f))).toString(8)]).toEqual([f, '600']);
    }
    expect((await stat(outside)).mode & 0o777).toBe(0o644);
  });
});
