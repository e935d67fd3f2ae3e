// The editor's own markers over the bridge on a real runtime and sandbox: added at the playhead,
// renamed, moved, deleted and undone like corrections, and in the EDL and Premiere XML beside the
// source within a second of each change; a rewrite of the results keeps them.
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { Bridge } from '../../main/ipc/handlers.js';
import { makeToneWav } from '../helpers/media.js';
import { value } from '../helpers/result.js';
import { until, useBridgeEnv } from './helpers.js';

const t = useBridgeEnv({ mediaUrl: true, events: true });

const edlNames = async (file: string): Promise<string[]> =>
  [...(await readFile(file, 'utf8')).matchAll(/\|M:(.+) \|D:1$/gm)].map((m) => m[1]!);
const premiereNames = async (file: string): Promise<string[]> => {
  const doc = new XMLParser({ isArray: (n) => n === 'marker' }).parse(await readFile(file, 'utf8')) as {
    xmeml: { sequence: { marker?: Array<{ name: string }> } };
  };
  return (doc.xmeml.sequence.marker ?? []).map((m) => String(m.name));
};

describe('markers of the editor’s own', () => {
  it('follow every change into the editor formats within a second, undo included, and survive a rewrite', async () => {
    await t.env.rt.updateSettings((s) => ({
      ...s,
      defaults: { ...s.defaults, output: { ...s.defaults.output, formats: ['json', 'srt', 'edl', 'premiere'] } },
    }));
    const media = path.join(t.env.dir, 'media');
    await mkdir(media, { recursive: true });
    const added = value(await t.bridge.handlers['queue:add']({ paths: [await makeToneWav(media, 'talk.wav', 20)] }));
    const jobId = added[0]?.outcome === 'added' ? added[0].jobId : '';
    await until(() => t.env.rt.queue.job(jobId)?.state === 'completed', 30_000);
    const edl = path.join(media, 'talk.edl');
    const premiere = path.join(media, 'talk.premiere.xml');
    const srtBefore = await readFile(path.join(media, 'talk.srt'), 'utf8');

    let view = value(await t.bridge.handlers['transcript:open']({ jobId }));
    expect(view.markers).toEqual([]);
    const change = async (edit: Parameters<Bridge['handlers']['transcript:edit']>[0]['edit']) => {
      const started = Date.now();
      view = value(await t.bridge.handlers['transcript:edit']({ jobId, revision: view.revision, edit }));
      await until(() =>
        t.events.find(
          (e) => e.name === 'transcript:changed' && e.payload.jobId === jobId && e.payload.revision === view.revision,
        ),
      );
      return Date.now() - started;
    };
    const took = await change({
      kind: 'addMarker',
      atMs: 3000,
      name: 'Laugh',
      note: 'after the joke',
      colour: 'Green',
    });
    expect(took).toBeLessThan(5000); // a second on a quiet machine; nothing waits for a timer
    expect(view.markers).toEqual([{ id: 'm1', atMs: 3000, name: 'Laugh', note: 'after the joke', colour: 'Green' }]);
    expect(await edlNames(edl)).toContain('Laugh');
    expect(await premiereNames(premiere)).toContain('Laugh');
    // Media-time formats do not change for a marker.
    expect(await readFile(path.join(media, 'talk.srt'), 'utf8')).toBe(srtBefore);

    await change({ kind: 'updateMarker', id: 'm1', name: 'Big laugh', atMs: 6000 });
    expect(await edlNames(edl)).toContain('Big laugh');
    expect(await edlNames(edl)).not.toContain('Laugh');

    await change({ kind: 'removeMarker', id: 'm1' });
    expect(await edlNames(edl)).not.toContain('Big laugh');

    view = value(await t.bridge.handlers['transcript:undo']({ jobId }));
    await until(() =>
      t.events.find(
        (e) => e.name === 'transcript:changed' && e.payload.jobId === jobId && e.payload.revision === view.revision,
      ),
    );
    expect(view.markers?.map((m) => m.name)).toEqual(['Big laugh']);
    expect(await edlNames(edl)).toContain('Big laugh');

    // Written again from the kept export: the marker is still there.
    value(await t.bridge.handlers['queue:rewrite']({ id: jobId }));
    expect(await edlNames(edl)).toContain('Big laugh');
  }, 60_000);
});
