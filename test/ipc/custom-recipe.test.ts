// A custom recipe through the bridge, on a sandbox the test starts: saved in Settings, listed with
// the built-ins, chosen as the default for files added by hand, and sent as its edited wording with
// the built-in's answer ids and schemas; the sandbox's record of the upload says what arrived.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBridge, type Bridge } from '../../main/ipc/handlers.js';
import { RECIPES } from '../../main/engine/recipes/recipes.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { SANDBOX } from '../../main/service/policy.js';
import type { Runtime } from '../../main/runtime/runtime.js';
import type { CustomRecipeValue } from '../../preload/contract.js';
import { makeToneWav } from '../helpers/media.js';
import { value } from '../helpers/result.js';
import { closeRuntimes, openRuntime } from '../helpers/runtime.js';
import { getStream } from '../sandbox/client.js';
import { until } from './helpers.js';
import { memoryVault } from '../../main/adapters/store/secrets/secret-vault.js';

let sb: Sandbox;
let dir: string;
let rt: Runtime;
let bridge: Bridge;

beforeEach(async () => {
  sb = await startSandbox({ fixedProcessingMs: 60 });
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-custom-recipe-'));
  rt = await openRuntime({ stateDir: path.join(dir, 'state'), sandbox: { url: sb.url, apiKey: SANDBOX.apiKey } });
  bridge = createBridge(
    rt,
    {
      kind: 'web',
      version: '0.0.0-test',
      secrets: memoryVault(),
      openPath: async () => {},
      revealPath: async () => {},
    },
    { flushIntervalMs: 20, statsIntervalMs: 50 },
  );
});
afterEach(async () => {
  bridge.close();
  await closeRuntimes();
  await sb.close();
  await rm(dir, { recursive: true, force: true });
});

const mine: CustomRecipeValue = {
  id: 'custom-our-show',
  name: 'Our show',
  basedOn: 'podcast',
  prompts: [
    { prompt: 'Cut this episode of Our Show into chapters, one per segment.', system: 'Quote the transcript exactly.' },
    { prompt: 'Pick three lines for the newsletter.', system: 'Quote the transcript exactly.' },
    { prompt: 'List keywords a listener would search for, in English.', system: 'Answer with JSON only.' },
  ],
  summary: { length: 'brief' },
};

describe('a custom recipe', () => {
  it('is saved, listed after the built-ins and sent as edited wording with the built-in’s ids and schemas', async () => {
    const s = value(
      await bridge.handlers['settings:update']({
        patch: { customRecipes: [mine], defaults: { recipe: 'custom-our-show' } },
      }),
    );
    expect(s.customRecipes).toEqual([mine]);
    const list = value(await bridge.handlers['recipes:list']({}));
    expect(list.map((r) => r.id)).toEqual(['podcast', 'interview', 'meeting', 'custom-our-show']);
    expect(list[3]).toMatchObject({ label: 'Our show', basedOn: 'podcast', summary: { length: 'brief' } });
    expect(list[3]!.prompts.map((p) => p.id)).toEqual(RECIPES.podcast.prompts.map((p) => p.id));

    const media = path.join(dir, 'media');
    await mkdir(media);
    const file = await makeToneWav(media, 'episode.wav', 1);
    const added = value(await bridge.handlers['queue:add']({ paths: [file] }));
    const jobId = added[0]?.outcome === 'added' ? added[0].jobId : '';
    await until(() => rt.queue.job(jobId)?.state === 'completed');
    const streamId = rt.queue.job(jobId)!.streamId!;
    // What the sandbox received: the llm processor's properties after the template patches.
    const stream = await getStream(sb.url, streamId);
    const llm = stream.configuration.processors.find((p) => p.id === 'llm')?.properties as {
      summary: { properties: { length: string } };
      askAnything: Array<{
        promptId: string;
        content: string;
        systemPrompt: string;
        responseFormat: { specification: string };
      }>;
    };
    expect(llm.summary.properties.length).toBe('brief');
    expect(llm.askAnything.map((a) => [a.promptId, a.content, a.systemPrompt])).toEqual(
      mine.prompts.map((p, n) => [RECIPES.podcast.prompts[n]!.id, p.prompt, p.system]),
    );
    llm.askAnything.forEach((a, n) =>
      expect(JSON.parse(a.responseFormat.specification)).toEqual(RECIPES.podcast.prompts[n]!.format),
    );
    const view = value(await bridge.handlers['queue:snapshot']({})).jobs.find((j) => j.id === jobId);
    expect(view?.recipe).toBe('Our show');

    // A re-run sends what the job sent, even once the defaults choose another recipe.
    value(await bridge.handlers['settings:update']({ patch: { defaults: { recipe: 'podcast' } } }));
    const again = value(await bridge.handlers['history:rerun']({ jobId }));
    const rerunId = again[0]?.outcome === 'added' ? again[0].jobId : '';
    expect(rerunId).not.toBe('');
    expect(rt.queue.job(rerunId)?.params).toMatchObject({ ask0: mine.prompts[0]!.prompt, summaryLength: 'brief' });
    await until(() => rt.queue.job(rerunId)?.state === 'completed');
    const rerunView = value(await bridge.handlers['queue:snapshot']({})).jobs.find((j) => j.id === rerunId);
    expect(rerunView?.recipe).toBe('Our show');
  });

  it('goes with every file landing in a watch folder that chose it', async () => {
    const watched = path.join(dir, 'drop');
    await mkdir(watched);
    const own = await openRuntime({
      stateDir: path.join(dir, 'state-watch'),
      sandbox: { url: sb.url, apiKey: SANDBOX.apiKey },
      start: false,
    });
    await own.updateSettings((s) => ({
      ...s,
      queue: { ...s.queue, settleMs: 200 },
      customRecipes: [mine],
      watchFolders: [
        {
          id: 'drop',
          path: watched,
          enabled: true,
          templateId: s.defaults.templateId,
          params: {},
          recipe: 'custom-our-show',
          include: [],
          exclude: [],
          recursive: true,
          output: s.defaults.output,
          postAction: { kind: 'none' },
        },
      ],
    }));
    await own.start({ watch: true });
    await makeToneWav(watched, 'landed.wav', 1);
    const job = await until(() => own.queue.jobs().find((j) => j.state === 'completed'), 30_000);
    expect(job.origin).toEqual({ kind: 'watch', folderId: 'drop' });
    const stream = await getStream(sb.url, job.streamId!);
    const llm = stream.configuration.processors.find((p) => p.id === 'llm')?.properties as {
      askAnything: Array<{ content: string; systemPrompt: string }>;
    };
    expect(llm.askAnything.map((a) => a.content)).toEqual(mine.prompts.map((p) => p.prompt));
  });

  it('cannot be deleted while the defaults or a folder use it; the refusal names them and changes nothing', async () => {
    value(await bridge.handlers['settings:update']({ patch: { customRecipes: [mine] } }));
    const watched = path.join(dir, 'watched');
    await mkdir(watched);
    value(await bridge.handlers['folders:add']({ folder: { path: watched, recipe: 'custom-our-show' } }));
    const before = rt.settings.get();
    const refused = await bridge.handlers['settings:update']({ patch: { customRecipes: [] } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    if (!refused.ok) {
      expect(refused.error.fields?.[0]?.path).toBe('watchFolders.0.recipe');
      expect(refused.error.fields?.[0]?.message).toContain(`The watch folder ${watched} uses the custom recipe`);
    }
    expect(rt.settings.get()).toEqual(before);
    const unknown = await bridge.handlers['folders:add']({ folder: { path: dir, recipe: 'custom-nothing' } });
    expect(unknown.ok).toBe(false);
  });

  it('refuses bad wording with the field’s path, and payloads the schema does not allow', async () => {
    const empty = await bridge.handlers['settings:update']({
      patch: {
        customRecipes: [{ ...mine, prompts: [mine.prompts[0]!, mine.prompts[1]!, { prompt: ' ', system: 'x' }] }],
      },
    });
    expect(empty.ok).toBe(false);
    const extra = await bridge.handlers['settings:update']({
      patch: { customRecipes: [{ ...mine, format: '{}' } as CustomRecipeValue] },
    });
    expect(extra.ok).toBe(false);
    expect(rt.settings.get().customRecipes).toBeUndefined();
  });
});
