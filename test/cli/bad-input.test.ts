// Bad input stays harmless at the command line: `sluice process` and `sluice watch` on a state folder
// whose settings file does not parse start on the defaults and say so on stderr, naming the file and
// where it was kept; a binary glossary file is refused with its terms quoted escaped, no raw bytes.
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { buildCli, runCli, startCli } from './run-cli.js';

const KEY = 'damaged-settings-key';
let dir: string;
let sandbox: Sandbox;

beforeAll(async () => {
  buildCli();
  dir = await makeMediaDir('sluice-cli-damaged-settings-');
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

async function stateWith(name: string, bytes: Buffer): Promise<string> {
  const stateDir = path.join(dir, name);
  await mkdir(stateDir);
  await writeFile(path.join(stateDir, 'settings.json'), bytes);
  return stateDir;
}

async function keptAside(stateDir: string): Promise<string> {
  const names = (await readdir(stateDir)).filter((n) => n.startsWith('settings.json.damaged-'));
  expect(names).toHaveLength(1);
  return path.join(stateDir, names[0]!);
}

describe('a settings file that does not parse', () => {
  it('process: binary settings are kept aside, the file is processed on defaults, and no raw byte is printed', async () => {
    // ESC [2J (clear screen) among random bytes: the JSON parser used to echo them.
    const binary = Buffer.concat([Buffer.from('\u001b[2J'), randomBytes(200)]);
    const stateDir = await stateWith('binary', binary);
    const media = path.join(dir, 'process-media');
    await mkdir(media);
    const wav = await makeToneWav(media, 'take.wav', 1);
    const r = await runCli(['process', wav, '--state-dir', stateDir, '--base-url', sandbox.url], {
      SLUICE_API_KEY: KEY,
    });
    expect(r.code, r.out).toBe(0);
    const kept = await keptAside(stateDir);
    expect(await readFile(kept)).toEqual(binary);
    expect(r.stderr).toContain(`settings: The settings file ${path.join(stateDir, 'settings.json')} could not be read`);
    expect(r.stderr).toContain(kept);
    expect(r.stderr).toContain('default settings');
    expect(r.out).not.toContain('\u001b');
    expect(await readdir(media)).toContain('take.json');
  });

  it('watch: an empty settings file is kept aside and the watch starts, saying so', async () => {
    const stateDir = await stateWith('empty', Buffer.alloc(0));
    const media = path.join(dir, 'watch-media');
    await mkdir(media);
    const running = startCli(['watch', media, '--state-dir', stateDir, '--base-url', sandbox.url], {
      SLUICE_API_KEY: KEY,
    });
    try {
      await running.waitFor(/Watching /);
      await copyFile(await makeToneWav(dir, 'tone.wav', 1), path.join(media, 'new.wav'));
      await running.waitFor(/completed .*new\.wav/);
    } finally {
      const r = await running.stop();
      expect(r.code, r.out).toBe(0);
      const kept = await keptAside(stateDir);
      expect(r.stderr).toContain(`${path.join(stateDir, 'settings.json')} could not be read (it is empty)`);
      expect(r.stderr).toContain(kept);
    }
  });
});

describe('a glossary file that is binary', () => {
  it('is refused (exit 2) with its terms escaped: no ESC or other control byte reaches the terminal', async () => {
    const media = path.join(dir, 'glossary-media');
    await mkdir(media);
    const wav = await makeToneWav(media, 'take.wav', 1);
    // Random bytes with an ESC [2J (clear screen) and a bell on a line of their own.
    const glossary = path.join(dir, 'g\u001b[31mred.txt');
    await writeFile(
      glossary,
      Buffer.concat([randomBytes(2000), Buffer.from('\nab\u001b[2J\u0007cd\n'), randomBytes(2000)]),
    );
    const r = await runCli(
      ['process', wav, '--glossary', glossary, '--state-dir', path.join(dir, 'gstate'), '--base-url', sandbox.url],
      {
        SLUICE_API_KEY: KEY,
      },
    );
    expect(r.code, r.out).toBe(2);
    expect(r.stderr).toContain('"ab\\u001B[2J\\u0007cd": a glossary term is text; this one holds control characters');
    // The file's own name is escaped too.
    expect(r.stderr).toContain('g\\u001B[31mred.txt');
    // eslint-disable-next-line no-control-regex -- control bytes are what must not be printed
    expect(r.out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(await readdir(media)).toEqual(['take.wav']);
  });
});
