// The README's promises, run as written. Every `sluice` command, every option and every SLUICE_*
// variable it names is extracted from README.md, and each must be exercised by a case below that
// cites the README text it runs; a name the README adds without a working case fails here.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../main/api/client.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { SANDBOX } from '../../main/service/policy.js';
import { TEMPLATES } from '../../main/service/templates.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { startMediaServer, type MediaServer } from '../helpers/media-server.js';
import { buildCli, ROOT, runCli, startCli, type CliResult, type RunningCli } from './run-cli.js';

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const SCRIPTS = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

/** Inline code and the lines of fenced blocks: where the README writes commands. */
const code = [
  ...[...README.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? ''),
  ...[...README.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => (m[1] ?? '').split('\n')),
];
const named = {
  commands: new Set(
    code.flatMap((c) => [...c.matchAll(/(?:^|\s)sluice ([a-z]+)/g)].map((m) => m[1] ?? '')).filter(Boolean),
  ),
  options: new Set(
    code
      .filter((c) => /sluice|^--/.test(c))
      .flatMap((c) => [...c.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0])),
  ),
  variables: new Set([...README.matchAll(/SLUICE_[A-Z0-9_]+/g)].map((m) => m[0])),
  scripts: new Set(
    code.flatMap((c) => [...c.matchAll(/npm (?:run ([a-z0-9:]+)|(start|test)\b)/g)].map((m) => m[1] ?? m[2] ?? '')),
  ),
};

const KEY = 'readme-key';
const TRANSCRIPTION = TEMPLATES.find((t) => !t.sandboxOnly)?.id ?? '';
const ALL_SANDBOX_VARIABLES = {
  SLUICE_SANDBOX_SPEED_FACTOR: '0.01',
  SLUICE_SANDBOX_FIXED_PROCESSING_MS: '100',
  SLUICE_SANDBOX_RETENTION_MS: '600000',
  SLUICE_SANDBOX_MAX_CONCURRENT_STREAMS: '5',
  SLUICE_SANDBOX_TOKEN_EXPIRES_IN_S: '600',
  SLUICE_SANDBOX_FAULTS: '{"latency":{"ms":1}}',
};

let dir: string;
let state: string;
let wav: string;
let sandbox: Sandbox;
let slow: Sandbox;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

interface Case {
  /** The README text this case runs (must appear in README.md). */
  readme: string;
  args: () => string[];
  env?: () => Record<string, string>;
  /** For commands that run until stopped: what to do while they run; SIGTERM follows. */
  whileRunning?: (running: RunningCli) => Promise<void>;
  /** Checks the finished run. */
  check: (r: CliResult) => void | Promise<void>;
}

/** The last three words of a processed file's transcript (from the JSON beside it), once it has one. */
function lastWordsOf(media: string): string {
  const json = media.replace(/\.\w+$/, '.json');
  if (!existsSync(json)) return 'not processed yet';
  const words = (JSON.parse(readFileSync(json, 'utf8')) as { transcription: { words: Array<{ word: string }> } })
    .transcription.words;
  return words
    .slice(-3)
    .map((w) => w.word.trim())
    .join(' ');
}

/** No browser is opened from a test. */
const NO_DESKTOP = { DISPLAY: '', WAYLAND_DISPLAY: '' };

const ok = (r: CliResult): void => expect(r.code, r.out).toBe(0);

const CASES: Case[] = [
  {
    readme: '`sluice process <file-or-folder>...`',
    args: () => [
      'process',
      wav,
      '--sandbox',
      '--state-dir',
      state,
      '--template',
      TRANSCRIPTION,
      '--param',
      'language=en',
      '--param',
      'language=de',
      '--param',
      'summary=true',
      '--formats',
      'json,srt,vtt,txt,csv,md',
      '--concurrency',
      '1',
      '--json',
    ],
    env: () => ALL_SANDBOX_VARIABLES,
    check: (r) => {
      ok(r);
      const out = JSON.parse(r.stdout) as { simulated: boolean; jobs: Array<{ state: string }> };
      expect(out.simulated).toBe(true);
      expect(out.jobs.map((j) => j.state)).toEqual(['completed']);
      for (const ext of ['json', 'srt', 'vtt', 'txt', 'csv', 'md'])
        expect(existsSync(wav.replace(/wav$/, ext))).toBe(true);
    },
  },
  {
    readme: '`--timecode 01:00:00:00`, `--frame-rate 25`',
    args: () => [
      ...['process', wav, '--force', '--sandbox', '--state-dir', path.join(dir, 'timecode')],
      ...['--formats', 'edl,fcpxml', '--timecode', '01:00:00:00', '--frame-rate', '25'],
    ],
    env: () => ({ SLUICE_SANDBOX_SPEED_FACTOR: '0.01' }),
    check: (r) => {
      ok(r);
      const edl = readFileSync(wav.replace(/wav$/, 'edl'), 'utf8');
      expect(edl).toContain('FCM: NON-DROP FRAME');
      const recIn = /^001 .* (\d\d):(\d\d):(\d\d):(\d\d) \S+ *$/m.exec(edl);
      expect(recIn?.slice(1, 3)).toEqual(['01', '00']);
      // 01:00:00:00 at 25 fps is frame 90,000: the timeline starts there and the clip sits there; the
      // media (a WAV with no timecode of its own) keeps its start at 0.
      const fcpxml = readFileSync(wav.replace(/wav$/, 'fcpxml'), 'utf8');
      expect(fcpxml).toContain('tcStart="90000/25s"');
      expect(fcpxml).toMatch(/<asset-clip [^>]*offset="90000\/25s" start="0s"/);
      expect(fcpxml).toMatch(/<asset [^>]*start="0s"/);
    },
  },
  {
    // The file processed by the case above, written again at another start and rate: no processing.
    readme: '`sluice rewrite clip.mov --timecode 00:59:50;00 --frame-rate 29.97df`',
    args: () => [
      ...['rewrite', wav, '--timecode', '00:59:50;00', '--frame-rate', '29.97df'],
      ...['--state-dir', path.join(dir, 'timecode')],
    ],
    check: (r) => {
      ok(r);
      expect(r.stdout).toContain('written');
      const edl = readFileSync(wav.replace(/wav$/, 'edl'), 'utf8');
      expect(edl).toContain('FCM: DROP FRAME');
      expect(/^001 .* (\d\d:\d\d:\d\d;\d\d) \S+ *$/m.exec(edl)?.[1]?.slice(0, 5)).toBe('00:59');
      // 00:59:50;00 at 29.97 DF is frame 107,592: × 1001/30000 s, the timeline's start (the media's stays 0).
      const fcpxml = readFileSync(wav.replace(/wav$/, 'fcpxml'), 'utf8');
      expect(fcpxml).toContain(`tcStart="${107_592 * 1001}/30000s"`);
      expect(fcpxml).toMatch(/<asset [^>]*start="0s"/);
    },
  },
  {
    readme: '`--recipe podcast`, `--glossary FILE`',
    args: () => {
      // A folder of its own: the results of the cases above beside clip.wav belong to other state folders.
      const own = path.join(dir, 'recipe-media');
      mkdirSync(own, { recursive: true });
      copyFileSync(wav, path.join(own, 'clip.wav'));
      const glossary = path.join(dir, 'glossary.txt');
      writeFileSync(glossary, 'MoveFlow\nHélène Dubois\n');
      return [
        ...['process', path.join(own, 'clip.wav'), '--sandbox', '--state-dir', path.join(dir, 'recipe')],
        ...['--formats', 'json,chapters', '--recipe', 'podcast', '--glossary', glossary],
      ];
    },
    env: () => ({ SLUICE_SANDBOX_SPEED_FACTOR: '0.01' }),
    check: (r) => {
      ok(r);
      const chapters = JSON.parse(readFileSync(path.join(dir, 'recipe-media', 'clip.chapters.json'), 'utf8')) as {
        version: string;
        chapters: Array<{ startTime: number; title: string }>;
      };
      expect(chapters.version).toBe('1.2.0');
      expect(chapters.chapters[0]?.startTime).toBe(0);
    },
  },
  {
    readme: '`sluice --version`',
    args: () => ['--version'],
    check: (r) => {
      ok(r);
      const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
      expect(r.stdout.trim()).toBe(pkg.version);
    },
  },
  {
    readme: '`--base-url URL`',
    args: () => ['process', wav, '--force', '--base-url', sandbox.url, '--state-dir', path.join(dir, 'base-url')],
    env: () => ({ SLUICE_API_KEY: KEY }),
    check: (r) => {
      ok(r);
      expect(r.stdout).toMatch(/1 completed/);
    },
  },
  {
    readme: '`SLUICE_STATE_DIR`',
    // No --state-dir: the variable alone points history at the folder the case above processed in.
    args: () => ['history', '--json'],
    env: () => ({ SLUICE_STATE_DIR: path.join(dir, 'base-url') }),
    check: (r) => {
      ok(r);
      expect(r.stdout).toContain(path.basename(wav));
    },
  },
  {
    readme:
      "`--gateway-url`, `--stream-url`, `--export-url`, `--usage-url`, `--configuration-url` (the account's templates), and `--auth-url` for the token endpoint",
    args: () => [
      'process',
      wav,
      '--force',
      ...['--gateway-url', '--stream-url', '--export-url', '--usage-url', '--configuration-url', '--auth-url'].flatMap(
        (o) => [o, sandbox.url],
      ),
      '--state-dir',
      path.join(dir, 'urls'),
    ],
    env: () => ({ SLUICE_CLIENT_ID: 'readme-client', SLUICE_CLIENT_SECRET: 'readme-secret' }),
    check: (r) => {
      ok(r);
      expect(r.stdout).toMatch(/1 completed/);
    },
  },
  {
    readme: '`sluice status` / `sluice history [--state S]... [--search TEXT] [--computer NAME]...`',
    args: () => ['status', '--state-dir', state, '--wide'],
    check: (r) => {
      ok(r);
      expect(r.stdout).toMatch(/1 completed/);
    },
  },
  {
    readme: '`sluice status` / `sluice history [--state S]... [--search TEXT] [--computer NAME]...`',
    args: () => ['history', '--state', 'completed', '--state', 'failed', '--state-dir', state],
    check: (r) => {
      ok(r);
      expect(r.stdout.trimEnd().split('\n')).toHaveLength(2);
      expect(r.stdout).toContain(wav);
    },
  },
  {
    readme: '`--computer` keeps the files processed on that computer (letter case ignored)',
    // The files here were processed by `sluice process`, not from a shared folder: they name no
    // computer, so none is kept (History's own tests hold the files a computer did).
    args: () => ['history', '--computer', os.hostname().toUpperCase(), '--state-dir', state],
    check: async (r) => {
      ok(r);
      expect(r.stdout.trim()).toBe('No jobs match.');
      const all = await runCli(['history', '--state-dir', state]);
      expect(all.stdout).toContain(wav);
    },
  },
  {
    readme: '`--search` keeps the jobs whose file name holds its words, in any order, ignoring case and accents',
    args: () => ['history', '--search', 'CLÍP', '--state-dir', state],
    check: async (r) => {
      ok(r);
      expect(r.stdout).toContain(wav);
      const none = await runCli(['history', '--search', 'clip-not-this', '--state-dir', state]);
      expect(none.stdout.trim()).toBe('No jobs match.');
    },
  },
  {
    readme: '`sluice rewrite [file-or-folder...] [--formats LIST]',
    args: () => ['rewrite', wav, '--formats', 'json,srt', '--state-dir', state],
    check: async (r) => {
      ok(r);
      expect(existsSync(wav.replace(/wav$/, 'srt'))).toBe(true);
      await rm(wav.replace(/wav$/, 'srt'));
    },
  },
  {
    readme: '[--preset streaming\\|broadcast\\|vertical]`',
    args: () => ['rewrite', wav, '--formats', 'json,srt', '--preset', 'vertical', '--state-dir', state],
    check: async (r) => {
      ok(r);
      const srt = readFileSync(wav.replace(/wav$/, 'srt'), 'utf8');
      // Vertical: every cue one line of at most 32 characters, no speaker names.
      const cues = srt.trim().split(/\n\n+/);
      expect(cues.length).toBeGreaterThan(1);
      for (const cue of cues) {
        const text = cue.split('\n').slice(2);
        expect(text).toHaveLength(1);
        expect(Array.from(text[0]!).length).toBeLessThanOrEqual(32);
      }
      expect(srt).not.toMatch(/Speaker \d/);
      await rm(wav.replace(/wav$/, 'srt'));
    },
  },
  {
    readme: 'sluice selects add "Interview cut" "recorder.wav" --from 10:00:12:05 --to 10:00:19:00 --colour Cyan',
    // The tone WAV has no timecode: its first second is 00:00:00:00 to 00:00:00:24 at 25 fps.
    args: () => [
      ...['selects', 'add', 'Interview cut', wav, '--from', '00:00:00:00', '--to', '00:00:00:12'],
      ...['--colour', 'Cyan', '--state-dir', state],
    ],
    check: (r) => {
      ok(r);
      expect(r.stdout).toMatch(/^added to "Interview cut" \(1\): /);
    },
  },
  {
    readme:
      'sluice selects add "Interview cut" "Camera A.mov" --quote "we start with the budget" --label "Budget" --note "keep the pause"',
    args: () => [
      ...['selects', 'add', 'Interview cut', wav, '--quote', lastWordsOf(wav)],
      ...['--label', 'Budget', '--note', 'keep the pause', '--state-dir', state],
    ],
    check: (r) => {
      ok(r);
      expect(r.stdout.trim()).toBe('added to "Interview cut" (2): Budget');
    },
  },
  {
    readme: 'sluice selects list "Interview cut" --json',
    args: () => ['selects', 'list', 'Interview cut', '--json', '--state-dir', state],
    check: (r) => {
      ok(r);
      const list = JSON.parse(r.stdout) as { selects: Array<{ label: string; text: string; note: string }> };
      expect(list.selects.map((s) => s.label)).toEqual([list.selects[0]!.text, 'Budget']);
      expect(list.selects[1]!.text).toBe(lastWordsOf(wav));
      expect(list.selects[1]!.note).toBe('keep the pause');
    },
  },
  {
    readme: 'sluice selects export "Interview cut" --formats otio,fcpxml,premiere,edl,script --out ~/Cuts --handles 12',
    args: () => [
      ...['selects', 'export', 'Interview cut', '--formats', 'otio,fcpxml,premiere,edl,script'],
      ...['--out', path.join(dir, 'cuts'), '--handles', '12', '--state-dir', state],
      ...['--timecode', '10:00:00:00', '--frame-rate', '25'],
    ],
    check: (r) => {
      ok(r);
      for (const ending of ['otio', 'fcpxml', 'premiere.xml', 'edl', 'script.docx', 'script.txt']) {
        expect(existsSync(path.join(dir, 'cuts', `Interview cut.${ending}`)), ending).toBe(true);
      }
      const edl = readFileSync(path.join(dir, 'cuts', 'Interview cut.edl'), 'utf8');
      // Two events from 10:00:00:00; the first bite's handle is cut short by the media's start.
      expect([...edl.matchAll(/^00\d .* (10:00:\d\d:\d\d) (10:00:\d\d:\d\d)$/gm)].map((m) => m[1])[0]).toBe(
        '10:00:00:00',
      );
      expect(edl).toMatch(/^001 .* 00:00:00:00 /m);
    },
  },
  {
    readme: '`sluice templates` / `sluice templates check --template ID [--param k=v]...`',
    args: () => ['templates'],
    check: (r) => {
      ok(r);
      for (const t of TEMPLATES) expect(r.stdout).toContain(t.id);
    },
  },
  ...(['HOURS', 'DAYS', 'MONTHS'] as const).map((g, i): Case => ({
    readme: '`sluice usage [--start T] [--end T] [--granularity HOURS\\|DAYS\\|MONTHS] [--currency CODE]`',
    args: () => [
      'usage',
      '--start',
      // A week back from now: within the service's longest interval for every granularity (31
      // days for HOURS), whatever the day the suite runs.
      new Date(Date.now() - 7 * 86_400_000).toISOString(),
      '--end',
      new Date().toISOString(),
      '--granularity',
      g,
      ...(i === 2 ? [] : ['--currency', i === 0 ? 'USD' : 'EUR']),
      '--sandbox',
      '--state-dir',
      state,
    ],
    check: (r) => {
      ok(r);
      expect(r.stdout).toMatch(/Total/);
    },
  })),
  {
    readme: '`--stream ID` (or `--file PATH`: its latest stream in History)',
    args: () => ['usage', '--stream', slowStream, '--base-url', slow.url, '--state-dir', path.join(dir, 'cost')],
    env: () => ({ SLUICE_API_KEY: KEY }),
    check: (r) => {
      ok(r);
      expect(r.stdout).toContain(`Stream ${slowStream}`);
      // Still processing: the transcriber's latest partial record, not yet final.
      expect(r.stdout).toMatch(/Batch transcription \(still counting\)/);
      expect(r.stdout).toMatch(/Total so far/);
    },
  },
  {
    readme: '`--stream ID` (or `--file PATH`: its latest stream in History)',
    // A file History has never seen: said in words (usage-stream.test.ts covers one it has).
    args: () => [
      'usage',
      '--file',
      path.join(dir, 'never-processed.wav'),
      '--sandbox',
      '--state-dir',
      path.join(dir, 'cost'),
    ],
    check: (r) => {
      expect(r.code, r.out).toBe(1);
      expect(r.stderr).toMatch(/History has no stream for .*never-processed\.wav\. Give its stream id with --stream/);
    },
  },
  {
    readme: '`sluice cancel <stream-id>`',
    args: () => ['cancel', slowStream, '--base-url', slow.url, '--state-dir', path.join(dir, 'cancel')],
    env: () => ({ SLUICE_API_KEY: KEY }),
    check: (r) => {
      ok(r);
      expect(r.stdout).toContain(`Stream ${slowStream} canceled`);
    },
  },
  {
    readme: '`sluice watch [folder...]`',
    args: () => [
      'watch',
      watched,
      '--no-recursive',
      '--include',
      '*.wav',
      '--exclude',
      'skip*',
      '--sandbox',
      '--state-dir',
      path.join(dir, 'watch-state'),
    ],
    whileRunning: async (running) => {
      await running.waitFor(/Watching /);
      for (const f of ['x.wav', 'skip.wav', path.join('sub', 'y.wav')]) await copyFile(wav, path.join(watched, f));
      await running.waitFor(/completed \S+x\.wav/, 30_000);
    },
    check: (r) => {
      ok(r);
      expect(r.stdout).not.toContain('skip.wav');
      expect(r.stdout).not.toContain('y.wav');
    },
  },
  {
    readme: '`--output DIR` writes the results into DIR under the same subfolders as below the watched folder',
    args: () => [
      'watch',
      cardDir,
      '--output',
      path.join(dir, 'card-out'),
      '--sandbox',
      '--state-dir',
      path.join(dir, 'watch-output-state'),
    ],
    whileRunning: async (running) => {
      await running.waitFor(/Watching /);
      await copyFile(wav, path.join(cardDir, 'CLIP', 'C0001.wav'));
      await running.waitFor(/completed \S+C0001\.wav/, 30_000);
    },
    check: (r) => {
      ok(r);
      expect(existsSync(path.join(dir, 'card-out', 'CLIP', 'C0001.json'))).toBe(true);
      expect(readdirSync(path.join(cardDir, 'CLIP'))).toEqual(['C0001.wav']);
    },
  },
  {
    readme:
      '`--shared` when other computers watch the same folder ([Team mode](#team-mode)), `--claim-timeout SECONDS`',
    args: () => [
      'watch',
      path.join(dir, 'shared'),
      '--shared',
      '--claim-timeout',
      '30',
      '--sandbox',
      '--state-dir',
      path.join(dir, 'shared-state'),
    ],
    whileRunning: async (running) => {
      await running.waitFor(/Watching /);
      await copyFile(wav, path.join(dir, 'shared', 'team.wav'));
      await running.waitFor(/completed \S+team\.wav/, 30_000);
    },
    check: async (r) => {
      ok(r);
      // The file is done for every computer on the folder: its record is on the share, by name and
      // by content (so a computer that finds it renamed knows it too).
      const records = await readdir(path.join(dir, 'shared', '.sluice', 'done'));
      expect(records.filter((n) => !n.startsWith('content-'))).toHaveLength(1);
      expect(records.filter((n) => n.startsWith('content-'))).toHaveLength(1);
    },
  },
  {
    readme: '`sluice serve [--port N] [--open]`',
    args: () => ['serve', '--port', String(servePort), '--open', '--state-dir', path.join(dir, 'serve')],
    env: () => NO_DESKTOP,
    whileRunning: async (running) => {
      const out = await running.waitFor(/Sluice is running at \S+/);
      const link = /Sluice is running at (\S+)/.exec(out)?.[1] ?? '';
      expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${servePort}/#token=.+`));
      expect(await running.waitFor(/No desktop session/)).toContain('open the link above yourself');
      const page = await fetch(link.replace(/#.*/, ''));
      expect(page.status).toBe(200);
      await page.text();
    },
    check: ok,
  },
  {
    readme: '`sluice serve --new-token` makes a new one',
    args: () => {
      // A token kept from an earlier start: the new one replaces it.
      mkdirSync(path.join(dir, 'serve-renew'), { recursive: true, mode: 0o700 });
      writeFileSync(path.join(dir, 'serve-renew', 'web-token'), `${'a'.repeat(32)}\n`, { mode: 0o600 });
      return ['serve', '--new-token', '--state-dir', path.join(dir, 'serve-renew')];
    },
    whileRunning: async (running) => {
      const out = await running.waitFor(/Sluice is running at \S+/);
      const token = /#token=(\S+)/.exec(out)?.[1] ?? '';
      expect(token).not.toBe('a'.repeat(32));
      expect(readFileSync(path.join(dir, 'serve-renew', 'web-token'), 'utf8').trim()).toBe(token);
      expect(await running.waitFor(/links printed before no longer work/)).toContain('new access token');
    },
    check: ok,
  },
  {
    readme: '`--host` with another address also needs\n`--allow-remote`',
    args: () => ['serve', '--host', '127.0.0.2', '--state-dir', path.join(dir, 'serve-host')],
    check: (r) => {
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--allow-remote');
    },
  },
  {
    readme: '`--host` with another address also needs\n`--allow-remote`',
    args: () => ['serve', '--host', '127.0.0.2', '--allow-remote', '--state-dir', path.join(dir, 'serve-remote')],
    whileRunning: async (running) => {
      await running.waitFor(/Sluice is running at http:\/\/127\.0\.0\.2:\d+\//);
    },
    check: ok,
  },
  {
    readme: '`sluice sandbox [--port N] [--api-key KEY] [--speed-factor X] [--profile realistic] [--verbose]`',
    args: () => [
      'sandbox',
      '--port',
      String(sandboxPort),
      '--api-key',
      'k2',
      '--speed-factor',
      '0.1',
      '--profile',
      'realistic',
      '--verbose',
    ],
    env: () => ({ SLUICE_SANDBOX_SEED: '5' }),
    whileRunning: async (running) => {
      await running.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+/);
      const res = await fetch(`http://127.0.0.1:${sandboxPort}/sandbox/admin/stats`, {
        headers: { authorization: 'Basic k2' },
      });
      expect(res.status).toBe(200);
      await res.text();
    },
    check: (r) => {
      ok(r);
      expect(r.stdout).toMatch(/GET \/sandbox\/admin\/stats 200/);
      expect(r.stdout).toContain('realistic profile, seed 5');
    },
  },
  {
    readme: '`SLUICE_SANDBOX_PROFILE=realistic`',
    args: () => ['sandbox', '--port', String(profilePort)],
    env: () => ({ SLUICE_SANDBOX_PROFILE: 'realistic' }),
    whileRunning: async (running) => {
      await running.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+/);
    },
    check: (r) => {
      ok(r);
      expect(r.stdout).toContain('realistic profile, seed 1');
    },
  },
  {
    readme: '`sluice process <link>... [--links-dir DIR]`',
    args: () => [
      'process',
      `${linkServer.url}/${path.basename(wav)}`,
      '--sandbox',
      '--state-dir',
      path.join(dir, 'links-state'),
      '--links-dir',
      path.join(dir, 'links-out'),
    ],
    check: (r) => {
      ok(r);
      expect(existsSync(path.join(dir, 'links-out', 'clip.json'))).toBe(true);
      expect(linkServer.requests).toContain('/clip.wav');
    },
  },
];

let watched: string;
let cardDir: string;
let slowStream: string;
let servePort: number;
let sandboxPort: number;
let profilePort: number;
let linkServer: MediaServer;

beforeAll(async () => {
  buildCli();
  dir = await makeMediaDir('sluice-readme-');
  state = path.join(dir, 'state');
  wav = await makeToneWav(dir, 'clip.wav', 1);
  linkServer = await startMediaServer(dir);
  sandbox = await startSandbox({
    apiKey: KEY,
    clientId: 'readme-client',
    clientSecret: 'readme-secret',
    fixedProcessingMs: 100,
  });
  slow = await startSandbox({ apiKey: KEY, fixedProcessingMs: 600_000 });
  const client = createClient({ baseUrl: slow.url, credentials: { kind: 'apiKey', apiKey: KEY } });
  slowStream = randomUUID();
  await client.upload({ filePath: wav, templateId: TRANSCRIPTION, streamId: slowStream });
  await client.close();
  watched = path.join(dir, 'watched');
  await mkdir(path.join(watched, 'sub'), { recursive: true });
  cardDir = path.join(dir, 'card');
  await mkdir(path.join(cardDir, 'CLIP'), { recursive: true });
  await mkdir(path.join(dir, 'card-out'));
  await mkdir(path.join(dir, 'shared'));
  servePort = await freePort();
  sandboxPort = await freePort();
  profilePort = await freePort();
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await slow?.close();
  await linkServer?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('README', () => {
  it('names the commands, options and variables this test runs', () => {
    expect([...named.commands].sort()).toEqual(
      [
        ...['cancel', 'history', 'process', 'rewrite', 'sandbox', 'selects', 'serve', 'status', 'templates', 'usage'],
        'watch',
      ].sort(),
    );
    expect(named.options.size).toBeGreaterThan(20);
    expect(named.variables.size).toBeGreaterThan(10);
  });

  it('cites only README text', () => {
    // Wherever the prose wraps: a line break in the README is a space in the citation.
    const flat = (s: string): string => s.replace(/\s+/g, ' ');
    for (const c of CASES) expect(flat(README), c.readme).toContain(flat(c.readme));
  });

  it('has a case for every command, option and SLUICE_* variable it names', () => {
    const runs = CASES.map((c) => ({ args: c.args(), env: Object.keys(c.env?.() ?? {}) }));
    const commandsRun = new Set(runs.map((r) => r.args[0]));
    const optionsRun = new Set(runs.flatMap((r) => r.args.filter((a) => a.startsWith('--'))));
    const variablesRun = new Set([...runs.flatMap((r) => r.env), ...Object.keys(SCRIPT_VARIABLES)]);
    expect(
      [...named.commands].filter((c) => !commandsRun.has(c)),
      'commands without a case',
    ).toEqual([]);
    expect(
      [...named.options].filter((o) => !optionsRun.has(o)),
      'options without a case',
    ).toEqual([]);
    expect(
      [...named.variables].filter((v) => !variablesRun.has(v)),
      'variables without a case',
    ).toEqual([]);
  });

  it.each(CASES.map((c, i) => [i, c.readme.replace(/\n/g, ' '), c] as const))('case %i: %s', async (_i, _readme, c) => {
    if (c.whileRunning) {
      const running = startCli(c.args(), c.env?.() ?? {});
      let result: CliResult | undefined;
      try {
        await c.whileRunning(running);
      } finally {
        result = await running.stop();
      }
      await c.check(result);
    } else {
      await c.check(await runCli(c.args(), c.env?.() ?? {}));
    }
  });

  it('`npx sluice <command>` works from the project folder', async () => {
    const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn('npx', ['sluice', 'templates'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.on('exit', (code) => resolve({ code, out }));
    });
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain(TRANSCRIPTION);
    // npm's own start-up comes first; with the suite's other files on two cores it passed 30 s.
  }, 90_000);
});

/** Variables of the project's scripts (the test runner, benchmarks): read where the README says. */
const SCRIPT_VARIABLES: Record<string, string> = {
  SLUICE_EXTRA_NODE: 'scripts/test.js',
  SLUICE_SKIP_PACKAGING: 'test/packaging/asar.test.ts',
  SLUICE_BENCH_ONLY: 'scripts/bench.js',
  SLUICE_TEST_WORKERS: 'vitest.config.ts',
  SLUICE_E2E_WORKERS: 'test/e2e/workers.ts',
};

describe('README scripts and their variables', () => {
  it.each(Object.entries(SCRIPT_VARIABLES))('%s is read by %s', (variable, file) => {
    expect(README).toContain(variable);
    expect(readFileSync(path.join(ROOT, file), 'utf8')).toMatch(new RegExp(`process\\.env\\.${variable}\\b`));
  });

  it('every npm script it names exists', () => {
    expect(named.scripts.size).toBeGreaterThan(5);
    for (const s of named.scripts) expect(Object.keys(SCRIPTS), `npm ${s}`).toContain(s);
  });

  it('`npm start` without Electron opens the interface through `sluice serve --open`', async () => {
    const running = startNpm(['start'], { SLUICE_NO_ELECTRON: '1', ...NO_DESKTOP, ...ALL_SANDBOX_VARIABLES });
    try {
      const out = await running.waitFor(/Sluice is running at http:\S+/, 240_000);
      expect(out).toMatch(/opening Sluice in your browser instead/);
      const sandboxUrl = /embedded sandbox at (http:\/\/\S+)/.exec(out)?.[1] ?? '';
      const faults = await fetch(`${sandboxUrl}/sandbox/admin/faults`, {
        headers: { authorization: `Basic ${SANDBOX.apiKey}` },
      });
      expect(await faults.json()).toEqual(JSON.parse(ALL_SANDBOX_VARIABLES.SLUICE_SANDBOX_FAULTS));
    } finally {
      await running.stop();
    }
  }, 300_000);
});

/** `npm <args>` in its own process group, stopped as a whole. */
function startNpm(
  args: string[],
  env: Record<string, string>,
): { waitFor(p: RegExp, ms: number): Promise<string>; stop(): Promise<void> } {
  const clean: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SLUICE_')) clean[k] = v;
  const child = spawn('npm', args, {
    cwd: ROOT,
    env: { ...clean, ...env, XDG_CONFIG_HOME: path.join(dir, 'npm-start-config') },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    waitFor: async (pattern, ms) => {
      const until = Date.now() + ms;
      while (!pattern.test(out)) {
        if (Date.now() > until || child.exitCode !== null)
          throw new Error(`npm ${args.join(' ')}: no ${pattern}:\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return out;
    },
    stop: async () => {
      if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGTERM');
      await exited;
    },
  };
}
