// `npm start`'s fallbacks, without an Electron binary: a sandbox that cannot start is recognised
// from a real child process's stderr, and the Electron download resumes where it stopped.
import { createServer, type Server } from 'node:http';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript script without type declarations
import { downloadResumable, runElectron, sandboxFailed } from '../../scripts/start.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-start-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SUID_FATAL =
  "[1234:FATAL:setuid_sandbox_host.cc(158)] The SUID sandbox helper binary was found, but is not configured correctly. Rather than run without sandboxing I'm aborting now. You need to make sure that /x/node_modules/electron/dist/chrome-sandbox is owned by root and has mode 4755.";

describe('npm start', () => {
  it("recognises Chromium's sandbox failures and nothing else", () => {
    expect(sandboxFailed(SUID_FATAL)).toBe(true);
    expect(sandboxFailed('[1:FATAL:zygote_host_impl_linux.cc(128)] No usable sandbox! ...')).toBe(true);
    expect(sandboxFailed('Error: Cannot find module dist/main/index.js')).toBe(false);
  });

  it.runIf(process.platform !== 'win32')(
    'sees the failure of a real process that aborts as Chromium does (SIGTRAP)',
    async () => {
      const fake = path.join(dir, 'electron');
      await writeFile(
        fake,
        `#!${process.execPath}\nprocess.stderr.write(${JSON.stringify(SUID_FATAL + '\n')});\nprocess.kill(process.pid, 'SIGTRAP');\n`,
      );
      await chmod(fake, 0o755);
      const seen = await new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) => {
        runElectron(fake, [], (code: number | null, signal: string | null, stderr: string) =>
          resolve({ code, signal, stderr }),
        );
      });
      expect(seen.signal).toBe('SIGTRAP');
      expect(sandboxFailed(seen.stderr)).toBe(true);
    },
  );

  describe('the Electron download', () => {
    let server: Server;
    let url: string;
    const body = Buffer.alloc(300_000, 7).map((_, i) => i % 251);
    const ranges: Array<string | undefined> = [];
    let cutAfter: number | undefined;

    beforeEach(async () => {
      ranges.length = 0;
      server = createServer((req, res) => {
        ranges.push(req.headers.range);
        const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
        const from = m ? Number(m[1]) : 0;
        res.writeHead(m ? 206 : 200, { 'content-length': String(body.length - from) });
        if (cutAfter !== undefined) {
          // The connection drops midway (a slow link, a closed laptop).
          res.write(body.subarray(from, from + cutAfter), () => setTimeout(() => res.destroy(), 200));
          cutAfter = undefined;
        } else res.end(body.subarray(from));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const a = server.address();
      url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/electron.zip`;
    });
    afterEach(() => new Promise<void>((r) => server.close(() => r())));

    it('keeps a partial download and resumes it with a Range request, reporting progress', async () => {
      const dest = path.join(dir, 'cache', 'electron.zip');
      cutAfter = 100_000;
      await expect(downloadResumable(url, dest)).rejects.toThrow();
      expect((await stat(`${dest}.partial`)).size).toBeGreaterThan(0);
      const progress: number[] = [];
      await downloadResumable(url, dest, { onProgress: (got: number) => progress.push(got) });
      expect(ranges[0]).toBeUndefined();
      expect(ranges[1]).toMatch(/^bytes=\d+-$/);
      expect(Number(/\d+/.exec(ranges[1] ?? '')?.[0])).toBeGreaterThan(0);
      expect((await readFile(dest)).equals(body)).toBe(true);
      expect(progress.at(-1)).toBe(body.length);
    });
  });
});
