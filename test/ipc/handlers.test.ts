// The handlers against a real Runtime on the embedded sandbox: Results, typed errors, field errors
// saved nowhere, secrets never in a view, history paging, usage errors as field errors.
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { value } from '../helpers/result.js';
import { makeToneWav } from '../helpers/media.js';
import { until, useBridgeEnv } from './helpers.js';

const t = useBridgeEnv({ events: true });

describe('handlers', () => {
  it('answers app:info and templates:list', async () => {
    const info = value(await t.bridge.handlers['app:info']({}));
    expect(info).toMatchObject({ platform: 'web', simulated: true, version: '0.0.0-test' });
    const catalogue = value(await t.bridge.handlers['templates:list']({}));
    expect(catalogue.templates.length).toBeGreaterThan(3);
    expect(catalogue.templates.every((t) => t.available)).toBe(true);
    // The sandbox's account lists a template of its own; its parameters come from its aliases.
    expect(catalogue.source).toBe('account');
    expect(catalogue.notice).toBeUndefined();
    const own = catalogue.templates.find((t) => t.id === 'acme-newsroom-v2');
    expect(own).toMatchObject({ account: true, diarizes: true });
    expect(own?.params.map((p) => p.name)).toEqual(
      expect.arrayContaining(['language', 'transcriber.noSpeechThreshold', 'stream.summaryStyle']),
    );
  });

  it('queues a file, reports it through t.events, and finds it in the history', async () => {
    const media = path.join(t.env.dir, 'media');
    await mkdir(media);
    const file = await makeToneWav(media, 'interview.wav', 1);
    const added = value(await t.bridge.handlers['queue:add']({ paths: [file] }));
    expect(added[0]).toMatchObject({ outcome: 'added' });
    const jobId = added[0]?.outcome === 'added' ? added[0].jobId : '';
    await until(() => t.env.rt.queue.job(jobId)?.state === 'completed');
    const snap = value(await t.bridge.handlers['queue:snapshot']({}));
    const job = snap.jobs.find((j) => j.id === jobId);
    expect(job).toMatchObject({ state: 'completed', fileName: 'interview.wav', canRetry: false, canCancel: false });
    expect(job?.results[0]?.fileName).toBe('interview.json');
    await until(() => t.events.some((e) => e.name === 'job:updated' && e.payload.state === 'completed'));
    expect(t.events.some((e) => e.name === 'job:added')).toBe(true);

    value(await t.bridge.handlers['result:open']({ jobId, format: 'json' }));
    expect(t.env.opened).toEqual([`open ${path.join(media, 'interview.json')}`]);
    const retry = await t.bridge.handlers['queue:retry']({ id: jobId });
    expect(retry).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    const missing = await t.bridge.handlers['result:open']({ jobId, format: 'docx' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });

    const page = value(await t.bridge.handlers['history:list']({ search: 'INTER', includeExternal: false }));
    expect(page.total).toBe(1);
    expect(page.entries[0]).toMatchObject({ origin: 'local', jobId, canRerun: true, canReexport: true });
    const none = value(await t.bridge.handlers['history:list']({ search: 'nothing-like-this' }));
    expect(none.entries).toEqual([]);

    const re = value(await t.bridge.handlers['history:reexport']({ jobId }));
    expect(re.results.map((r) => r.fileName).sort()).toEqual([
      'interview.json',
      'interview.srt',
      'interview.txt',
      'interview.vtt',
    ]);
    const again = value(await t.bridge.handlers['history:rerun']({ jobId }));
    expect(again[0]).toMatchObject({ outcome: 'added' });

    value(await t.bridge.handlers['queue:dismiss']({ id: jobId }));
    await until(() => t.events.some((e) => e.name === 'job:removed' && e.payload.id === jobId));
  });

  it('re-exports the formats chosen, keeps the JSON, and remembers them for the next time', async () => {
    const media = path.join(t.env.dir, 'media');
    await mkdir(media);
    const file = await makeToneWav(media, 'take 2 – Zoë.wav', 1);
    const added = value(await t.bridge.handlers['queue:add']({ paths: [file] }));
    const jobId = added[0]?.outcome === 'added' ? added[0].jobId : '';
    await until(() => t.env.rt.queue.job(jobId)?.state === 'completed');
    const before = value(await t.bridge.handlers['history:list']({ includeExternal: false }));
    expect(before.entries[0]).toMatchObject({ jobId, formats: ['json', 'srt', 'vtt', 'txt'], params: {} });

    const re = value(await t.bridge.handlers['history:reexport']({ jobId, formats: ['srt', 'txt'] }));
    expect(re.results.map((r) => r.fileName).sort()).toEqual([
      'take 2 – Zoë.json',
      'take 2 – Zoë.srt',
      'take 2 – Zoë.txt',
    ]);
    // The VTT of the first run (a default format) stays: a re-export replaces, it does not delete.
    expect((await readdir(media)).sort()).toEqual([
      'take 2 – Zoë.json',
      'take 2 – Zoë.srt',
      'take 2 – Zoë.txt',
      'take 2 – Zoë.vtt',
      'take 2 – Zoë.wav',
    ]);
    const after = value(await t.bridge.handlers['history:list']({ includeExternal: false }));
    expect(after.entries[0]?.formats).toEqual(['srt', 'txt']);
    // Without a choice, the job's formats (now the chosen ones) are written again.
    const again = value(await t.bridge.handlers['history:reexport']({ jobId }));
    expect(again.results.map((r) => r.format).sort()).toEqual(['json', 'srt', 'txt']);
  });

  it('merges streams started elsewhere into the history, marked external', async () => {
    const { createClient } = await import('../../main/api/client.js');
    const sandbox = t.env.rt.connection.sandbox;
    if (!sandbox) throw new Error('no sandbox');
    const client = createClient({ baseUrl: sandbox.url, credentials: { kind: 'apiKey', apiKey: 'sandbox-key' } });
    const wav = await makeToneWav(t.env.dir, 'elsewhere.wav', 1);
    await client.upload({ filePath: wav, templateId: '668115d123bca7e3509723d4', streamId: randomUUID() });
    await client.close();
    const page = value(await t.bridge.handlers['history:list']({}));
    const ext = page.entries.find((e) => e.origin === 'external');
    expect(ext).toMatchObject({ fileName: 'elsewhere.wav', canRerun: false });
    expect(page.external.included).toBe(true);
  });

  it('rejects bad template parameters as field errors', async () => {
    const r = await t.bridge.handlers['queue:add']({ paths: ['/nowhere.wav'], params: { vad: 'maybe' } });
    expect(r).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    if (!r.ok) expect(r.error.fields?.[0]?.path).toBe('params.vad');
    const badId = await t.bridge.handlers['queue:add']({ paths: ['/nowhere.wav'], templateId: 'no/pe' });
    expect(badId.ok).toBe(false);
    if (!badId.ok) expect(badId.error.fields?.[0]?.path).toBe('templateId');
    // An id Sluice cannot describe is not refused: the service judges it (the file is what fails here).
    const u = await t.bridge.handlers['queue:add']({ paths: ['/nowhere.wav'], templateId: 'not-listed-anywhere' });
    expect(u).toMatchObject({ ok: true, value: [{ outcome: 'rejected' }] });
    const unknown = await t.bridge.handlers['queue:cancel']({ id: 'no-such-job' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('validates a settings change as a whole: field paths back, nothing saved half-way', async () => {
    const before = t.env.rt.settings.get();
    const bad = await t.bridge.handlers['settings:update']({
      patch: { queue: { uploadConcurrency: 3, pollMinMs: 5 }, spendingGuard: { monthlyCreditCap: -1 } },
    });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.code).toBe('VALIDATION');
      expect(bad.error.fields?.map((f) => f.path).sort()).toEqual([
        'queue.pollMinMs',
        'spendingGuard.monthlyCreditCap',
      ]);
    }
    expect(t.env.rt.settings.get()).toEqual(before);
    const good = value(await t.bridge.handlers['settings:update']({ patch: { queue: { uploadConcurrency: 3 } } }));
    expect(good.queue.uploadConcurrency).toBe(3);
    expect(good.queue.pollMaxMs).toBe(before.queue.pollMaxMs);
    expect(t.events.some((e) => e.name === 'settings:changed')).toBe(true);
  });

  it("a watch folder's row keeps its last Rescan summary through later status changes", async () => {
    const dir = path.join(t.env.dir, 'watched');
    await mkdir(dir);
    const folder = value(await t.bridge.handlers['folders:add']({ folder: { path: dir } }));
    // Watched (this bridge's runtime starts without watching) once its first scan is over.
    await t.env.rt.folders.apply();
    await until(() => t.env.rt.folders.statuses().find((s) => s.folderId === folder.id)?.state === 'watching');
    const scanned = value(await t.bridge.handlers['folders:rescan']({ id: folder.id }));
    const summary = scanned.find((s) => s.folderId === folder.id)?.lastRescan;
    expect(summary?.text).toBeTruthy();
    t.events.length = 0;
    value(await t.bridge.handlers['folders:pause']({ id: folder.id }));
    await until(() => t.events.some((e) => e.name === 'folder:status-changed' && e.payload.folderId === folder.id));
    for (const e of t.events) {
      if (e.name === 'folder:status-changed' && e.payload.folderId === folder.id) {
        expect(e.payload.lastRescan).toEqual(summary);
      }
    }
  });

  it('keeps the currency Usage shows as a setting, any ISO 4217 code and nothing else', async () => {
    const bad = await t.bridge.handlers['settings:update']({ patch: { usage: { currency: 'XYZ' } } });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.fields?.map((f) => f.path)).toEqual(['usage.currency']);
    expect(value(await t.bridge.handlers['settings:update']({ patch: { usage: { currency: 'RON' } } })).usage).toEqual({
      currency: 'RON',
    });
    expect(t.env.rt.settings.get().usage.currency).toBe('RON');
    const credits = value(await t.bridge.handlers['settings:update']({ patch: { usage: { currency: null } } }));
    expect(credits.usage.currency).toBeNull();
  });

  it('keeps the API key out of every view, event and file', async () => {
    const key = 'sk-live-0123456789abcdefWXYZ';
    const v = value(await t.bridge.handlers['settings:setApiKey']({ apiKey: key }));
    expect(v.credentials).toMatchObject({ apiKey: 'set', masked: '••••WXYZ' });
    expect(JSON.stringify(v)).not.toContain(key.slice(0, 12));
    expect(JSON.stringify(t.events)).not.toContain(key.slice(0, 12));
    const cleared = value(await t.bridge.handlers['settings:clearApiKey']({}));
    expect(cleared.credentials.apiKey).toBe('unset');
    for (const f of await readdir(t.env.stateDir, { recursive: true, withFileTypes: true })) {
      if (f.isFile()) expect(await readFile(path.join(f.parentPath, f.name), 'utf8')).not.toContain(key);
    }
  });

  it('adds a typed folder only when it exists and is a folder', async () => {
    const r = await t.bridge.handlers['folders:add']({ folder: { path: path.join(t.env.dir, 'missing') } });
    expect(r).toMatchObject({ ok: false, error: { code: 'VALIDATION', fields: [{ path: 'path' }] } });
    const pick = value(await t.bridge.handlers['folders:pick']({}));
    expect(pick).toEqual({ supported: false });
    const dir = path.join(t.env.dir, 'watched');
    await mkdir(dir);
    const f = value(await t.bridge.handlers['folders:add']({ folder: { path: dir, recursive: false } }));
    expect(f).toMatchObject({ path: dir, recursive: false, enabled: true });
    const statuses = value(await t.bridge.handlers['folders:statuses']({}));
    expect(statuses.map((s) => s.folderId)).toContain(f.id);
    const badParams = await t.bridge.handlers['folders:update']({ id: f.id, patch: { params: { vad: 'x' } } });
    expect(badParams.ok).toBe(false);
    if (!badParams.ok) expect(badParams.error.fields?.[0]?.path).toBe('params.vad');
    value(await t.bridge.handlers['folders:remove']({ id: f.id }));
    expect(t.env.rt.settings.get().watchFolders).toEqual([]);
  });

  it("a folder's output folder must exist, and a pattern that leaves the results folder is refused", async () => {
    const dir = path.join(t.env.dir, 'card');
    await mkdir(dir);
    const gone = await t.bridge.handlers['folders:add']({
      folder: { path: dir, outputDir: path.join(t.env.dir, 'nope') },
    });
    expect(gone).toMatchObject({ ok: false, error: { code: 'VALIDATION', fields: [{ path: 'outputDir' }] } });
    const out = path.join(t.env.dir, 'Transcripts');
    await mkdir(out);
    const f = value(await t.bridge.handlers['folders:add']({ folder: { path: dir, outputDir: out } }));
    expect(f.outputDir).toBe(out);
    const escape = await t.bridge.handlers['folders:update']({
      id: f.id,
      patch: { output: { ...f.output, pattern: '../{name}' } },
    });
    expect(escape.ok).toBe(false);
    if (!escape.ok) {
      expect(escape.error.fields?.[0]?.path).toBe('output.pattern');
      expect(escape.error.fields?.[0]?.message).toMatch(/leads out of the results folder/);
    }
    const back = value(await t.bridge.handlers['folders:update']({ id: f.id, patch: { outputDir: null } }));
    expect(back.outputDir).toBeNull();
    value(await t.bridge.handlers['folders:remove']({ id: f.id }));
  });

  it('answers the usage report, and maps the service refusals to fields', async () => {
    const u = value(await t.bridge.handlers['usage:report']({}));
    expect(u).toMatchObject({ simulated: true, cap: { enabled: false } });
    const csv = value(await t.bridge.handlers['usage:csv']({}));
    expect(csv.csv.split('\n')[0]).toContain('Period start (UTC)');
    const backwards = await t.bridge.handlers['usage:report']({ start: '2026-03-01', end: '2026-02-01' });
    expect(backwards.ok).toBe(false);
    if (!backwards.ok) expect(backwards.error.fields?.[0]?.path).toMatch(/^(start|end)$/);
    const currency = await t.bridge.handlers['usage:report']({ currency: 'NOPE' });
    expect(currency.ok).toBe(false);
    if (!currency.ok) expect(currency.error.fields?.[0]?.path).toBe('currency');
  });

  it('pauses, stops after current, and resumes', async () => {
    const p = value(await t.bridge.handlers['queue:pause']({}));
    expect(p.pause).toMatchObject({ reason: 'user' });
    const s = value(await t.bridge.handlers['queue:stopAfterCurrent']({}));
    expect(s.pause).toBeDefined();
    const r = value(await t.bridge.handlers['queue:resume']({}));
    expect(r.pause).toBeUndefined();
    expect(r.stoppingAfterCurrent).toBe(false);
    await until(
      () => t.events.some((e) => e.name === 'queue:paused') && t.events.some((e) => e.name === 'queue:resumed'),
    );
  });
});
