// `sluice process --recipe NAME` with a custom recipe saved in Settings: found by its name in any
// case (or its id), sent as its edited wording with the built-in's answer ids; an unknown name is
// refused before anything is sent, listing the recipes there are.
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingsStore } from '../../main/adapters/store/state/settings-store.js';
import { RECIPES } from '../../main/engine/recipes/recipes.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { allStreams } from '../helpers/service.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { buildCli, runCli } from './run-cli.js';

const KEY = 'custom-recipe-key';
let dir: string;
let stateDir: string;
let sandbox: Sandbox;
let file: string;

beforeAll(async () => {
  buildCli();
  dir = await makeMediaDir('sluice-cli-custom-recipe-');
  stateDir = path.join(dir, 'state');
  await mkdir(stateDir);
  file = await makeToneWav(dir, 'minutes.wav', 1);
  new SettingsStore(stateDir).update((s) => ({
    ...s,
    customRecipes: [
      {
        id: 'custom-board-minutes',
        name: 'Board minutes',
        basedOn: 'meeting',
        prompts: [
          { prompt: 'List what the board decided.', system: 'You read board minutes. JSON only.' },
          { prompt: 'List who must do what, and by when.', system: 'You read board minutes. JSON only.' },
        ],
      },
    ],
  }));
  sandbox = await startSandbox({ apiKey: KEY, fixedProcessingMs: 50 });
}, 180_000);

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('sluice process --recipe <custom recipe>', () => {
  it('finds it by name in any case and sends its wording with the built-in’s ids', async () => {
    const r = await runCli(
      [
        'process',
        file,
        '--recipe',
        'BOARD minutes',
        '--formats',
        'json',
        '--base-url',
        sandbox.url,
        '--state-dir',
        stateDir,
      ],
      { SLUICE_API_KEY: KEY },
      undefined,
      60_000,
    );
    expect(r.code, r.out).toBe(0);
    const streams = await allStreams(sandbox.url, KEY);
    expect(streams).toHaveLength(1);
    const llm = streams[0]!.configuration.processors.find((p) => p.id === 'llm')?.properties as {
      askAnything: Array<{ promptId: string; content: string; systemPrompt: string }>;
    };
    expect(llm.askAnything.slice(0, 2).map((a) => [a.promptId, a.content])).toEqual([
      [RECIPES.meeting.prompts[0]!.id, 'List what the board decided.'],
      [RECIPES.meeting.prompts[1]!.id, 'List who must do what, and by when.'],
    ]);
  });

  it('refuses an unknown name before anything is sent, listing the recipes there are', async () => {
    const before = (await allStreams(sandbox.url, KEY)).length;
    const r = await runCli(
      ['process', file, '--recipe', 'cooking', '--base-url', sandbox.url, '--state-dir', stateDir],
      {
        SLUICE_API_KEY: KEY,
      },
    );
    expect(r.code).toBe(2);
    expect(r.out).toContain(
      '--recipe: must be one of podcast, interview, meeting, "Board minutes" or none (got cooking)',
    );
    expect(await allStreams(sandbox.url, KEY)).toHaveLength(before);
  });
});
