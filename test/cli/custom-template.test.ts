// `sluice process` with the account's own template: a server that lists `acme-newsroom-v2` (the
// sandbox, over HTTP) receives the folder's files with repeated `--param language=…`, and the
// results are written; a parameter that template does not take is refused before anything is sent.
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import type { StreamDto } from '../../main/service/types.js';
import { allStreams } from '../helpers/service.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { buildCli, runCli } from './run-cli.js';

const KEY = 'custom-template-key';
let dir: string;
let sandbox: Sandbox;

beforeAll(async () => {
  buildCli();
  dir = await makeMediaDir('sluice-custom-template-');
  await mkdir(path.join(dir, 'media'));
  await makeToneWav(path.join(dir, 'media'), 'one.wav', 1);
  await makeToneWav(path.join(dir, 'media'), 'two.wav', 1);
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
}, 180_000);

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

const base = (): string[] => ['--base-url', sandbox.url, '--state-dir', path.join(dir, 'state')];

describe('sluice process --template <account template>', () => {
  it('processes the folder with the languages given, and writes the results', async () => {
    const r = await runCli(
      [
        'process',
        path.join(dir, 'media'),
        '--template',
        'acme-newsroom-v2',
        '--param',
        'language=EN',
        '--param',
        'language=de',
        '--param',
        'stream.summaryStyle=informative',
        ...base(),
      ],
      { SLUICE_API_KEY: KEY },
      undefined,
      60_000,
    );
    expect(r.code, r.out).toBe(0);
    expect(existsSync(path.join(dir, 'media', 'one.json'))).toBe(true);
    expect(existsSync(path.join(dir, 'media', 'two.json'))).toBe(true);
    const streams: StreamDto[] = await allStreams(sandbox.url, KEY);
    expect(streams).toHaveLength(2);
    for (const s of streams) {
      expect(s.configuration.streamConfigurationTemplateId).toBe('acme-newsroom-v2');
      const transcriber = s.configuration.processors.find((p) => p.id === 'transcriber');
      // Upper case given, lower case sent (the service takes ISO 639-1 codes in lower case).
      expect(transcriber?.properties).toMatchObject({ allowedLanguages: ['en', 'de'] });
      const llm = s.configuration.processors.find((p) => p.id === 'llm');
      expect(llm?.properties).toMatchObject({ summary: { properties: { tone: 'informative' } } });
    }
  }, 90_000);

  it('refuses a parameter the account template does not take, sending nothing', async () => {
    const before = (await allStreams(sandbox.url, KEY)).length;
    const r = await runCli(
      [
        'process',
        path.join(dir, 'media'),
        '--template',
        'acme-newsroom-v2',
        '--param',
        'vad=false',
        '--force',
        ...base(),
      ],
      { SLUICE_API_KEY: KEY },
    );
    expect(r.code, r.out).toBe(2);
    expect(r.stderr).toMatch(/vad: the template "Acme newsroom \(v2\)" has no such parameter/);
    expect((await allStreams(sandbox.url, KEY)).length).toBe(before);
  }, 60_000);

  it('`sluice templates` lists the account’s template and the languages by name', async () => {
    const r = await runCli(['templates', ...base()], { SLUICE_API_KEY: KEY });
    expect(r.code, r.out).toBe(0);
    expect(r.stdout).toMatch(/acme-newsroom-v2\tAcme newsroom \(v2\) \(your account\)/);
    expect(r.stdout).toMatch(/ro Romanian/);
  }, 60_000);
});
