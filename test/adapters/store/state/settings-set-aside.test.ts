// A settings file that does not parse (cut mid-write, binary, emptied) is renamed aside as
// `settings.json.damaged-<time>` and Sluice starts on the defaults, saying so with both names;
// commands that run beside the app without the state lock read defaults and leave the file alone.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SettingsStore, setAsideNotice } from '../../../../main/adapters/store/state/settings-store.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-settings-aside-'));
  file = path.join(dir, 'settings.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A settings file with a changed value, as the app saved it. */
function savedText(): string {
  const s = new SettingsStore(dir);
  s.update((x) => ({ ...x, queue: { ...x.queue, uploadConcurrency: 5 } }));
  return JSON.stringify({ settings: s.get() }, null, '\t');
}

const AT = Date.UTC(2026, 11, 7, 5, 30, 12, 345);
const KEPT = 'settings.json.damaged-2026-12-07T05-30-12-345Z';

describe('a settings file that does not parse', () => {
  const cases: Array<[string, () => Buffer, RegExp]> = [
    ['cut mid-object', () => Buffer.from(savedText().slice(0, 60)), /stops or breaks part-way/],
    ['200 random bytes', () => Buffer.concat([Buffer.from([0x1b, 0x5b, 0x32, 0x4a]), randomBytes(196)]), /binary/],
    ['empty', () => Buffer.alloc(0), /empty/],
    ['text that is not JSON', () => Buffer.from('concurrency = 5\n'), /it is not JSON/],
  ];
  it.each(cases)('%s: is kept aside whole, and the store starts on the defaults', async (_, bytes, reason) => {
    const damaged = bytes();
    await writeFile(file, damaged);
    const s = new SettingsStore(dir, { now: () => AT });
    expect(s.get().queue.uploadConcurrency).toBe(2);
    expect(s.setAside).toEqual({ file, keptAs: path.join(dir, KEPT), reason: expect.stringMatching(reason) });
    expect(await readFile(path.join(dir, KEPT))).toEqual(damaged);
    // The notice names both files and never quotes the damaged bytes.
    const notice = setAsideNotice(s.setAside!);
    expect(notice).toContain(file);
    expect(notice).toContain(path.join(dir, KEPT));
    expect(notice).not.toContain('\u001b');
    // A save writes a fresh file; the next start finds it whole and sets nothing aside.
    s.update((x) => ({ ...x, queue: { ...x.queue, uploadConcurrency: 3 } }));
    const next = new SettingsStore(dir);
    expect(next.setAside).toBeUndefined();
    expect(next.get().queue.uploadConcurrency).toBe(3);
    expect((await readdir(dir)).sort()).toEqual(['settings.json', KEPT]);
  });

  it('a whole file is left as it is: nothing set aside', async () => {
    await writeFile(file, savedText());
    const s = new SettingsStore(dir);
    expect(s.setAside).toBeUndefined();
    expect(s.get().queue.uploadConcurrency).toBe(5);
    expect(await readdir(dir)).toEqual(['settings.json']);
  });

  it("'ignore' (a command without the state lock) reads defaults and leaves the file where it is", async () => {
    await writeFile(file, '{"settings": {"queue": ');
    const s = new SettingsStore(dir, { damaged: 'ignore' });
    expect(s.get().queue.uploadConcurrency).toBe(2);
    expect(s.setAside).toBeUndefined();
    expect(await readFile(file, 'utf8')).toBe('{"settings": {"queue": ');
  });

  it("the editor's pause kept beside the settings: read back, lifted, and not a throw when the file is damaged while running", async () => {
    const s = new SettingsStore(dir);
    expect(s.heldPause()).toBeUndefined();
    s.holdPause({ since: '2026-12-07T05:00:00.000Z' });
    expect(new SettingsStore(dir).heldPause()).toEqual({ since: '2026-12-07T05:00:00.000Z' });
    // A Settings save (the whole settings object) leaves it be.
    s.update((x) => ({ ...x, queue: { ...x.queue, uploadConcurrency: 4 } }));
    expect(new SettingsStore(dir).heldPause()).toEqual({ since: '2026-12-07T05:00:00.000Z' });
    s.holdPause(undefined);
    expect(new SettingsStore(dir).heldPause()).toBeUndefined();
    s.holdPause({ since: '2026-12-07T05:00:00.000Z' });
    await writeFile(file, '{"sett');
    expect(s.heldPause()).toBeUndefined();
  });
});
