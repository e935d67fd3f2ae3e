// `sluice process <link>...` over real HTTP: a local file server serves generated media, the
// embedded sandbox fetches it (§4.4 b), and the results land in the links' folder named after the
// link's file name. Failed fetches fail the job with the reason; a link already processed is not
// processed again unless --force asks.
import { existsSync, readdirSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMediaDir, makeMp4, makeToneWav } from '../helpers/media.js';
import { makeCertificate, startMediaServer, type Certificate, type MediaServer } from '../helpers/media-server.js';
import { buildCli, runCli } from './run-cli.js';

let dir: string;
let served: string;
let server: MediaServer;
let tlsServer: MediaServer;
let cert: Certificate;

beforeAll(async () => {
  buildCli();
  dir = await makeMediaDir('sluice-links-cli-');
  served = path.join(dir, 'served');
  await import('node:fs/promises').then((fs) => fs.mkdir(served));
  await makeMp4(served, 'clip.mp4', 2);
  await makeToneWav(served, 'Interview%20take 2.wav', 1);
  await writeFile(path.join(served, 'readme.txt'), 'not media\n'.repeat(100));
  cert = await makeCertificate(dir);
  server = await startMediaServer(served);
  tlsServer = await startMediaServer(served, cert);
}, 120_000);
afterAll(async () => {
  await server.close();
  await tlsServer.close();
  await rm(dir, { recursive: true, force: true });
});

const fetchesOf = (s: MediaServer, p: string): number => s.requests.filter((r) => r === p).length;

describe('sluice process <link>', () => {
  it('completes, with results in the chosen folder named after the link; a second run does not reprocess', async () => {
    const state = path.join(dir, 'state-1');
    const out = path.join(dir, 'links-out');
    const link = `${server.url}/clip.mp4`;
    const args = ['process', link, '--sandbox', '--state-dir', state, '--links-dir', out, '--formats', 'json,srt'];
    const first = await runCli(args);
    expect(first.code, first.out).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['clip.json', 'clip.srt']);
    expect(fetchesOf(server, '/clip.mp4')).toBe(1);

    const again = await runCli(args);
    expect(again.code, again.out).toBe(0);
    expect(again.stderr).toContain(`already processed: ${link}`);
    expect(fetchesOf(server, '/clip.mp4')).toBe(1);

    const forced = await runCli([...args, '--force', '--json']);
    expect(forced.code, forced.out).toBe(0);
    expect(fetchesOf(server, '/clip.mp4')).toBe(2);
    // Sluice's own results are replaced, not doubled under fallback names.
    expect(readdirSync(out).sort()).toEqual(['clip.json', 'clip.srt']);
  }, 120_000);

  it('files and links in one run; a link name is decoded and an https link works with a trusted certificate', async () => {
    const state = path.join(dir, 'state-2');
    const out = path.join(dir, 'mixed-out');
    const local = await makeToneWav(dir, 'local.wav', 1);
    const r = await runCli(
      [
        'process',
        local,
        `${tlsServer.url}/Interview%2520take%202.wav?token=abc`,
        '--sandbox',
        '--state-dir',
        state,
        '--links-dir',
        out,
        '--json',
      ],
      { NODE_EXTRA_CA_CERTS: cert.certPath },
    );
    expect(r.code, r.out).toBe(0);
    const jobs = (JSON.parse(r.stdout) as { jobs: Array<{ state: string; file: string }> }).jobs;
    expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed']);
    // The link is shown without its query (a pre-signed link's signature lives there).
    expect(r.out).not.toContain('token=abc');
    expect(existsSync(path.join(dir, 'local.json'))).toBe(true);
    // The default formats: the JSON, captions for players, and plain text.
    expect(readdirSync(out).sort()).toEqual([
      'Interview%20take 2.json',
      'Interview%20take 2.srt',
      'Interview%20take 2.txt',
      'Interview%20take 2.vtt',
    ]);
  }, 120_000);

  it.each([
    ['a 404', '/missing.mp4', /could not fetch http:\/\/127\.0\.0\.1:\d+\/missing\.mp4: HTTP 404/],
    ['a link that is not media', '/readme.txt', /the link is not audio or video/],
  ])(
    '%s fails the job with the reason, and nothing is written',
    async (_name, p, reason) => {
      const state = path.join(dir, `state-${p.slice(1)}`);
      const out = path.join(dir, `out-${p.slice(1)}`);
      const r = await runCli(['process', `${server.url}${p}`, '--sandbox', '--state-dir', state, '--links-dir', out]);
      expect(r.code, r.out).toBe(1);
      expect(r.out).toMatch(reason);
      expect(existsSync(out)).toBe(false);
    },
    120_000,
  );

  it('an argument that is not a valid link is a clear rejection', async () => {
    const r = await runCli(['process', 'https://exa mple.org/a.mp4', '--sandbox', '--state-dir', path.join(dir, 's5')]);
    expect(r.code, r.out).toBe(1);
    expect(r.stderr).toMatch(/skipped: .*(not a valid link|contains spaces)/);
  }, 60_000);
});
