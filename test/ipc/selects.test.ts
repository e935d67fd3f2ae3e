// Selects over the bridge on a real runtime and sandbox: picked from a completed job's words into
// the current list, every change saved before it is answered and announced; deleted and put back by
// Undo, moved, trimmed, relabelled; each clip's media given as the review's player loads it; the
// lists the CLI keeps are the app's (both change one list while the app runs); the export writes
// every file into the folder asked for, and says what to do about a folder that is not one. Every
// payload is checked before a handler sees it.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../main/ipc/handlers.js';
import { Selects } from '../../main/runtime/selects.js';
import { makeToneWav } from '../helpers/media.js';
import { value } from '../helpers/result.js';
import { until, useBridgeEnv } from './helpers.js';

const t = useBridgeEnv({ events: true });

async function processed(): Promise<{ jobId: string; media: string; file: string }> {
  const media = path.join(t.env.dir, 'media');
  await mkdir(media, { recursive: true });
  const file = await makeToneWav(media, 'talk.wav', 20);
  const added = value(await t.bridge.handlers['queue:add']({ paths: [file] }));
  const jobId = added[0]?.outcome === 'added' ? added[0].jobId : '';
  await until(() => t.env.rt.queue.job(jobId)?.state === 'completed', 30_000);
  return { jobId, media, file };
}

describe('selects over the bridge', () => {
  it('picks, edits, undoes and exports a list the CLI shares', async () => {
    const { jobId, media, file } = await processed();
    const h = t.bridge.handlers;
    const opened = value(await h['transcript:open']({ jobId }));
    const words = opened.words;
    expect(words.length).toBeGreaterThan(8);

    // A list not made yet opens empty; the first select makes it.
    expect(value(await h['selects:open']({ list: 'Selects' }))).toMatchObject({ revision: 0, selects: [] });
    let list = value(await h['selects:add']({ list: 'Selects', jobId, from: 2, to: 5 }));
    expect(list.selects).toHaveLength(1);
    const first = list.selects[0]!;
    expect(first).toMatchObject({ jobId, fileName: 'talk.wav', words: [2, 5] });
    expect(first.text).toBe(
      words
        .slice(2, 5)
        .map((w) => w.text)
        .join(' '),
    );
    expect(first.sourceIn).toMatch(/^\d\d:\d\d:\d\d:\d\d$/);
    expect(first.durationMs).toBeGreaterThan(0);
    expect(list.totalMs).toBe(first.durationMs);
    // The string-out screen plays each clip from the same source the review's player loads.
    expect(list.media).toEqual({ [jobId]: opened.media });
    await until(() => t.events.find((e) => e.name === 'selects:changed' && e.payload.revision === list.revision));

    // The CLI's Selects over the same state folder adds to the same list while the app runs.
    const cli = new Selects(t.env.stateDir);
    const byCli = await cli.add({ list: 'selects', file, where: { quote: words[7]!.text + ' ' + words[8]!.text } });
    // Announced to the open screens without the app changing anything: the list's file was watched.
    await until(() =>
      t.events.find(
        (e) => e.name === 'selects:changed' && e.payload.list === 'Selects' && e.payload.revision === byCli.revision,
      ),
    );
    list = value(await h['selects:add']({ list: 'Selects', jobId, from: 0, to: 1 }));
    expect(list.selects.map((s) => s.words)).toEqual([
      [2, 5],
      [7, 9],
      [0, 1],
    ]);
    expect(value(await h['selects:lists']({}))).toEqual([{ name: 'Selects', count: 3 }]);

    // Reorder, trim, relabel.
    const last = list.selects[2]!.id;
    list = value(await h['selects:edit']({ list: 'Selects', edit: { kind: 'move', id: last, index: 0 } }));
    expect(list.selects[0]!.id).toBe(last);
    list = value(
      await h['selects:edit']({ list: 'Selects', edit: { kind: 'trim', id: first.id, end: 'in', words: -1 } }),
    );
    expect(list.selects.find((s) => s.id === first.id)!.words).toEqual([3, 5]);
    list = value(
      await h['selects:edit']({ list: 'Selects', edit: { kind: 'relabel', id: first.id, label: 'Budget' } }),
    );
    expect(list.selects.find((s) => s.id === first.id)!.label).toBe('Budget');

    // Delete, then Undo puts exactly that select back in its place.
    const before = list.selects.map((s) => s.id);
    list = value(await h['selects:edit']({ list: 'Selects', edit: { kind: 'remove', id: first.id } }));
    expect(list.selects.map((s) => s.id)).not.toContain(first.id);
    list = value(
      await h['selects:edit']({
        list: 'Selects',
        edit: { kind: 'restore', id: first.id, index: before.indexOf(first.id) },
      }),
    );
    expect(list.selects.map((s) => s.id)).toEqual(before);
    expect(list.selects[before.indexOf(first.id)]).toMatchObject({ label: 'Budget', words: [3, 5] });
    // A gap after the first row and a title card at the end: the total and the record times count them.
    const total = list.totalMs;
    const second = list.selects[1]!;
    list = value(
      await h['selects:edit']({ list: 'Selects', edit: { kind: 'addGap', ms: 2000, after: list.selects[0]!.id } }),
    );
    list = value(await h['selects:edit']({ list: 'Selects', edit: { kind: 'addTitle', text: 'Part two', ms: 3000 } }));
    const [gapRow, titleRow] = list.spacers!;
    expect(gapRow).toMatchObject({ kind: 'gap', ms: 2000, durationMs: 2000, index: 1 });
    expect(titleRow).toMatchObject({ kind: 'title', text: 'Part two', durationMs: 3000, index: 4 });
    expect(list.totalMs).toBe(total + 5000);
    expect(list.selects.find((s) => s.id === second.id)!.recordInMs).toBe(second.recordInMs! + 2000);
    list = value(await h['selects:edit']({ list: 'Selects', edit: { kind: 'respace', id: gapRow!.id, ms: 1000 } }));
    expect(list.totalMs).toBe(total + 4000);
    // Deleted and put back by Undo like a bite; a length out of bounds is refused in words.
    list = value(await h['selects:edit']({ list: 'Selects', edit: { kind: 'remove', id: titleRow!.id } }));
    expect(list.spacers!.map((x) => x.id)).toEqual([gapRow!.id]);
    list = value(await h['selects:edit']({ list: 'Selects', edit: { kind: 'restore', id: titleRow!.id, index: 4 } }));
    expect(list.spacers!.map((x) => [x.id, x.index])).toEqual([
      [gapRow!.id, 1],
      [titleRow!.id, 4],
    ]);
    const short = await h['selects:edit']({ list: 'Selects', edit: { kind: 'addGap', ms: 1 } });
    expect(short).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION', message: expect.stringMatching(/0\.04 to 600 seconds/) },
    });
    for (const x of list.spacers!)
      list = value(await h['selects:edit']({ list: 'Selects', edit: { kind: 'remove', id: x.id } }));
    expect(list.spacers).toBeUndefined();
    expect(list.totalMs).toBe(total);

    // What the app saved is what the CLI reads.
    expect((await cli.store.load('SELECTS'))!.revision).toBe(list.revision);

    // Export: every file into the folder asked for; by default beside the first clip.
    const out = path.join(t.env.dir, 'cuts');
    await mkdir(out);
    const done = value(await h['selects:export']({ list: 'Selects', formats: ['otio', 'edl', 'script'], folder: out }));
    expect(done).toMatchObject({ folder: out, bites: 3, missing: [] });
    expect(done.files.map((f) => path.basename(f)).sort()).toEqual([
      'Selects.edl',
      'Selects.otio',
      'Selects.script.docx',
      'Selects.script.txt',
    ]);
    for (const f of done.files) expect(existsSync(f)).toBe(true);
    const beside = value(await h['selects:export']({ list: 'Selects', formats: ['fcpxml'] }));
    expect(beside.files).toEqual([path.join(media, 'Selects.fcpxml')]);
  });

  it('says what to do about a bad folder, timecode, name or payload, and changes nothing', async () => {
    const { jobId } = await processed();
    const h = t.bridge.handlers;
    value(await h['selects:add']({ list: 'Cut', jobId, from: 0, to: 2 }));
    const missingFolder = await h['selects:export']({
      list: 'Cut',
      formats: ['edl'],
      folder: path.join(t.env.dir, 'nowhere'),
    });
    expect(missingFolder).toMatchObject({ ok: false, error: { code: 'VALIDATION', fields: [{ path: 'folder' }] } });
    expect(!missingFolder.ok && missingFolder.error.message).toMatch(/not a folder on this computer: choose another/);
    const badTc = await h['selects:export']({ list: 'Cut', formats: ['edl'], timecode: '99:99' });
    expect(badTc).toMatchObject({ ok: false, error: { code: 'VALIDATION', fields: [{ path: 'timecode' }] } });
    const badName = await h['selects:add']({ list: 'a/b', jobId, from: 0, to: 1 });
    expect(badName).toMatchObject({ ok: false, error: { code: 'VALIDATION', fields: [{ path: 'list' }] } });
    const outside = await h['selects:add']({ list: 'Cut', jobId, from: 5, to: 100_000 });
    expect(outside).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    const gone = await h['selects:edit']({ list: 'Cut', edit: { kind: 'restore', id: 'never', index: 0 } });
    expect(!gone.ok && gone.error.message).toMatch(/can no longer be put back/);
    // The schema stops what no handler should see.
    for (const raw of [
      { list: 'Cut', edit: { kind: 'move', id: 'x', index: -1 } },
      { list: 'Cut', edit: { kind: 'recolour', id: 'x', colour: 'Mauve' } },
      { list: 'Cut', edit: { kind: 'remove', id: 'x', extra: 1 } },
    ]) {
      expect(await dispatch(h, 'selects:edit', raw)).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
    }
    expect(await dispatch(h, 'selects:export', { list: 'Cut', formats: ['mp4'] })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PARAMS' },
    });
    expect(value(await h['selects:open']({ list: 'Cut' })).revision).toBe(1);
  });
});
