// Choosing a recipe in Settings: the default for files added by hand and a watch folder's own,
// checked like the rest of the settings (a recipe needs its question slots and a template with
// the audio-intelligence layer), and sent with every file that uses them.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANSWER_IDS } from '../../main/engine/recipes/recipes.js';
import { TEMPLATE_IDS } from '../../main/service/templates.js';
import { makeToneWav } from '../helpers/media.js';
import { until, useBridgeEnv } from './helpers.js';
import { value } from '../helpers/result.js';

const t = useBridgeEnv();

describe('recipes in Settings', () => {
  it('the default recipe goes with every file added by hand', async () => {
    const s = value(await t.bridge.handlers['settings:update']({ patch: { defaults: { recipe: 'podcast' } } }));
    expect(s.defaults.recipe).toBe('podcast');
    const media = path.join(t.env.dir, 'media');
    await mkdir(media);
    const file = await makeToneWav(media, 'episode.wav', 1);
    const added = value(await t.bridge.handlers['queue:add']({ paths: [file] }));
    const jobId = added[0]?.outcome === 'added' ? added[0].jobId : '';
    expect(t.env.rt.queue.job(jobId)?.params).toMatchObject({ summary: true, ask0Id: ANSWER_IDS.chapters });
    await until(() => t.env.rt.queue.job(jobId)?.state === 'completed');
  });

  it('refuses a recipe whose question slots the folder already uses, and one on a template without them', async () => {
    const before = t.env.rt.settings.get();
    const clash = await t.bridge.handlers['settings:update']({
      patch: { defaults: { recipe: 'meeting', params: { ask0: 'Who spoke first?' } } },
    });
    expect(clash).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    if (!clash.ok) {
      expect(clash.error.fields).toEqual([
        {
          path: 'defaults.recipe',
          message: 'ask0: the recipe "Meeting" uses question slot 1; clear ask0 or choose no recipe.',
        },
      ]);
    }
    const dir = path.join(t.env.dir, 'watched');
    await mkdir(dir);
    const ping = await t.bridge.handlers['folders:add']({
      folder: { path: dir, templateId: TEMPLATE_IDS.ping, recipe: 'interview' },
    });
    expect(ping.ok).toBe(false);
    expect(t.env.rt.settings.get()).toEqual(before);
    const ok = value(await t.bridge.handlers['folders:add']({ folder: { path: dir, recipe: 'interview' } }));
    expect(ok.recipe).toBe('interview');
  });

  it('a folder’s glossary goes as the vocabulary, and is refused, with the reason, where the template takes none', async () => {
    const dir = path.join(t.env.dir, 'glossary');
    await mkdir(dir);
    const ping = await t.bridge.handlers['folders:add']({
      folder: { path: dir, templateId: TEMPLATE_IDS.ping, glossary: ['MoveFlow'] },
    });
    expect(ping).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    if (!ping.ok) expect(ping.error.fields?.[0]?.path).toBe('glossary');
    if (!ping.ok)
      expect(ping.error.fields?.[0]?.message).toMatch(/takes no vocabulary, so the glossary cannot be sent/);
    const comma = await t.bridge.handlers['folders:add']({ folder: { path: dir, glossary: ['Smith, Jones'] } });
    expect(comma.ok).toBe(false);
    const s = value(
      await t.bridge.handlers['settings:update']({ patch: { defaults: { glossary: ['MoveFlow', 'Zoë Ødegaard'] } } }),
    );
    expect(s.defaults.glossary).toEqual(['MoveFlow', 'Zoë Ødegaard']);
    const file = await makeToneWav(dir, 'names.wav', 1);
    const added = value(await t.bridge.handlers['queue:add']({ paths: [file] }));
    const jobId = added[0]?.outcome === 'added' ? added[0].jobId : '';
    expect(t.env.rt.queue.job(jobId)?.params).toMatchObject({
      enhancedTranscription: true,
      etVocabulary: 'MoveFlow, Zoë Ødegaard',
    });
    await until(() => t.env.rt.queue.job(jobId)?.state === 'completed');
  });
});
