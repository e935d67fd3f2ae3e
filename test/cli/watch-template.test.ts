// `sluice watch --template <account template>` checks the parameters against the account's
// catalogue, as `sluice process` does, before anything is watched: over HTTP, against a sandbox
// that lists `acme-newsroom-v2`, and against one whose configuration service fails.
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { allStreams } from '../helpers/service.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { buildCli, runCli, startCli } from './run-cli.js';

const KEY = 'watch-template-key';
let dir: string;
let sandbox: Sandbox;
/** Its configuration service answers 503 to every listing: the account's templates cannot be read. */
let noConfig: Sandbox;

beforeAll(async () => {
  buildCli();
  dir = await makeMediaDir('sluice-watch-template-');
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
  noConfig = await startSandbox({
    apiKey: KEY,
    speedFactor: 0.02,
    faults: { serverErrors: { everyKth: 1, operations: ['templateList'], status: 503, retryAfterS: 0 } },
  });
}, 180_000);

afterAll(async () => {
  await sandbox?.close();
  await noConfig?.close();
  await rm(dir, { recursive: true, force: true });
});

async function folder(name: string): Promise<string> {
  const p = path.join(dir, name);
  await mkdir(p, { recursive: true });
  return p;
}

const args = (url: string, media: string, state: string, params: string[]): string[] => [
  'watch',
  media,
  '--template',
  'acme-newsroom-v2',
  ...params.flatMap((p) => ['--param', p]),
  '--base-url',
  url,
  '--state-dir',
  path.join(dir, state),
];

describe('sluice watch --template <account template>', () => {
  it('refuses a parameter the account template does not take, before watching', async () => {
    const media = await folder('refused');
    await makeToneWav(media, 'early.wav', 1);
    const r = await runCli(args(sandbox.url, media, 'state-refused', ['vad=false']), { SLUICE_API_KEY: KEY });
    expect(r.code, r.out).toBe(2);
    expect(r.stderr).toMatch(/^sluice watch: vad: the template "Acme newsroom \(v2\)" has no such parameter/m);
    expect(r.stdout).not.toContain('Watching');
    expect(await allStreams(sandbox.url, KEY)).toHaveLength(0);
  }, 60_000);

  it('accepts its parameters and sends them with every file the folder receives', async () => {
    const media = await folder('accepted');
    const cli = startCli(args(sandbox.url, media, 'state-accepted', ['language=EN', 'language=de']), {
      SLUICE_API_KEY: KEY,
    });
    try {
      await cli.waitFor(/Watching/);
      await makeToneWav(media, 'arrived.wav', 1);
      await cli.waitFor(/completed .*arrived\.wav/, 45_000);
    } finally {
      const r = await cli.stop();
      expect(r.code, r.out).toBe(0);
      expect(r.stderr).not.toMatch(/unchecked/);
    }
    expect(existsSync(path.join(media, 'arrived.json'))).toBe(true);
    const [stream, ...more] = await allStreams(sandbox.url, KEY);
    expect(more).toHaveLength(0);
    expect(stream?.configuration.streamConfigurationTemplateId).toBe('acme-newsroom-v2');
    const transcriber = stream?.configuration.processors.find((p) => p.id === 'transcriber');
    expect(transcriber?.properties).toMatchObject({ allowedLanguages: ['en', 'de'] });
  }, 90_000);

  it('with the configuration service failing, watches anyway and says the parameters go unchecked', async () => {
    const media = await folder('unchecked');
    const cli = startCli(args(noConfig.url, media, 'state-unchecked', ['vad=false']), { SLUICE_API_KEY: KEY });
    const out = await cli.waitFor(/Watching/, 45_000).finally(() => cli.stop());
    expect(out).toMatch(
      /Sluice cannot describe template acme-newsroom-v2 \(the account’s templates could not be read\): its parameters are sent unchecked/,
    );
    expect((await cli.exited).code).toBe(0);
  }, 60_000);
});
