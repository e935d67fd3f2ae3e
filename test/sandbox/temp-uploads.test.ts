// The embedded sandbox (no dataDir) receives each upload into a temp dir of its own. Checked on the
// real disk: no body stays behind after a completed, a reset or an abandoned upload, the dir is gone
// after close, and a dir left by a sandbox whose process died is removed at the next start.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { TEMPLATE_IDS } from '../../main/service/templates.js';
import { AUTH, upload, uploadPath } from './client.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';

let root: string;
let savedTmp: string | undefined;
let sb: Sandbox | undefined;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'sluice-tmp-root-'));
  savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = root; // os.tmpdir() reads it on every call
});

afterEach(async () => {
  await sb?.close();
  sb = undefined;
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  await rm(root, { recursive: true, force: true });
});

/** Sends `share` of a 40 kB body (declared whole), then drops the connection 300 ms later. */
function halfThenGone(base: string, share: number): Promise<void> {
  const body = Buffer.alloc(40_000, 1);
  const url = new URL(
    base + uploadPath({ streamConfigurationTemplateId: TEMPLATE_IDS.transcription, id: randomUUID(), persist: 'true' }),
  );
  return new Promise((resolve) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/octet-stream', 'content-length': String(body.length) },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(body.subarray(0, Math.floor(body.length * share)));
    setTimeout(() => req.destroy(), 300);
  });
}

const sandboxDirs = async (): Promise<string[]> => (await readdir(root)).filter((n) => n.startsWith('sluice-sandbox-'));

describe('the embedded sandbox’s temporary uploads', () => {
  it('keeps no body after completed, reset and abandoned uploads, and removes its dir on close', async () => {
    const wav = await makeToneWav(await makeMediaDir(), 't.wav', 1);
    sb = await startSandbox({ fixedProcessingMs: 20 });
    const [own] = await sandboxDirs();
    expect(own).toMatch(new RegExp(`^sluice-sandbox-${process.pid}-`));
    const files = async (): Promise<string[]> => readdir(path.join(root, own ?? ''));

    expect((await upload(sb.url, wav)).status).toBe(200);
    sb.setFaults({ uploadReset: { next: 1, afterBytes: 10_000 } });
    await upload(sb.url, wav).catch(() => undefined);
    // A client that goes away halfway through its body, and one that goes away after its last byte
    // while the throttle still holds it (as behind a proxy).
    sb.setFaults({ uploadThrottle: { bytesPerSecond: 20_000 } });
    await Promise.all([halfThenGone(sb.url, 0.5), halfThenGone(sb.url, 1)]);
    await expect.poll(files, { timeout: 15_000 }).toEqual([]);

    await sb.close();
    sb = undefined;
    expect(await sandboxDirs()).toEqual([]);
  }, 30_000);

  it('removes the dir a killed sandbox left behind, and leaves a live one alone', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid;
    const stale = path.join(root, `sluice-sandbox-${dead}-abcdef`);
    await mkdir(stale);
    await writeFile(path.join(stale, 'half-received.bin'), Buffer.alloc(4096));
    const live = path.join(root, `sluice-sandbox-${process.ppid}-ghijkl`);
    await mkdir(live);
    sb = await startSandbox();
    const dirs = await sandboxDirs();
    expect(dirs).not.toContain(path.basename(stale));
    expect(dirs).toContain(path.basename(live));
  });
});
