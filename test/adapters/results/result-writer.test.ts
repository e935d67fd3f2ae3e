import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type FileStamp,
  chooseOutputPath,
  nameParts,
  TEMP_SUFFIX,
  tempPathFor,
  writeFileAtomic,
} from '../../../main/adapters/results/result-writer.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-rw-'));
});
afterEach(async () => {
  await chmod(dir, 0o755).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

const nobodyOwns = { isOurs: () => false };

describe('writeFileAtomic', () => {
  it('writes the whole content and leaves no temporary file', async () => {
    const target = path.join(dir, 'a.json');
    const stamp = await writeFileAtomic(target, '{"x":1}');
    expect(await readFile(target, 'utf8')).toBe('{"x":1}');
    expect(stamp.size).toBe(7);
    expect((await readdir(dir)).filter((f) => f.endsWith(TEMP_SUFFIX))).toEqual([]);
  });

  it('replaces an existing file in one step', async () => {
    const target = path.join(dir, 'a.json');
    await writeFile(target, 'old');
    await writeFileAtomic(target, 'new content');
    expect(await readFile(target, 'utf8')).toBe('new content');
  });

  it("replaces its own writer's temporary file a crash left behind, and leaves none", async () => {
    const target = path.join(dir, 'a.json');
    await writeFile(tempPathFor(target, 'job1'), '{"half":');
    await writeFile(tempPathFor(target, 'job2'), 'another writer, live');
    await writeFileAtomic(target, '{"x":1}', 'job1');
    expect(await readFile(target, 'utf8')).toBe('{"x":1}');
    expect((await readdir(dir)).filter((f) => f.endsWith(TEMP_SUFFIX))).toEqual([
      path.basename(tempPathFor(target, 'job2')),
    ]);
  });

  it.skipIf(process.getuid?.() === 0)('explains a read-only folder', async () => {
    await chmod(dir, 0o555);
    await expect(writeFileAtomic(path.join(dir, 'a.json'), 'x')).rejects.toThrow(/not writable/);
  });

  it('explains a missing folder and cleans up', async () => {
    await expect(writeFileAtomic(path.join(dir, 'gone', 'a.json'), 'x')).rejects.toThrow(/no longer exists/);
  });
});

describe('nameParts', () => {
  it.each([
    ['/x/interview 03.wav', 'interview 03', 'wav'],
    ['/x/archive.tar.gz', 'archive.tar', 'gz'],
    ['/x/noext', 'noext', ''],
    ['/x/Видео.mp4', 'Видео', 'mp4'],
  ])('%s', (p, name, ext) => {
    expect(nameParts(p)).toEqual({ name, ext });
  });
});

describe('chooseOutputPath', () => {
  it('uses {name}.json when free', async () => {
    const src = path.join(dir, 'take1.wav');
    expect(await chooseOutputPath(src, 'take1', 'json', nobodyOwns)).toEqual({
      path: path.join(dir, 'take1.json'),
      collided: false,
    });
  });

  it('falls back to {name}.{ext}.json when a foreign file holds {name}.json', async () => {
    const src = path.join(dir, 'take1.wav');
    await writeFile(path.join(dir, 'take1.json'), 'user data');
    // The file holding the usual name is named, for the editor to choose to overwrite it.
    expect(await chooseOutputPath(src, 'take1', 'json', nobodyOwns)).toEqual({
      path: path.join(dir, 'take1.wav.json'),
      collided: true,
      heldBy: path.join(dir, 'take1.json'),
    });
  });

  it('overwrites a file Sluice wrote itself', async () => {
    const src = path.join(dir, 'take1.wav');
    const ours = path.join(dir, 'take1.json');
    const stamp = await writeFileAtomic(ours, '{}');
    const owned = { isOurs: (p: string, s: FileStamp) => p === ours && s.size === stamp.size };
    expect(await chooseOutputPath(src, 'take1', 'json', owned)).toEqual({ path: ours, collided: false });
  });

  it('takes back a file holding exactly the result (a write cut off before it was recorded)', async () => {
    const src = path.join(dir, 'take1.wav');
    await writeFile(path.join(dir, 'take1.json'), '{"text":"héllo"}');
    expect(await chooseOutputPath(src, 'take1', 'json', nobodyOwns, '{"text":"héllo"}')).toEqual({
      path: path.join(dir, 'take1.json'),
      collided: false,
    });
    // Same size, other bytes: still someone else's file.
    expect(await chooseOutputPath(src, 'take1', 'json', nobodyOwns, '{"text":"hallo!"}')).toEqual({
      path: path.join(dir, 'take1.wav.json'),
      collided: true,
      heldBy: path.join(dir, 'take1.json'),
    });
  });

  it("a foreign file counts as taken whatever the case: a drone's DJI_0001_D.SRT holds DJI_0001_D.srt", async () => {
    const src = path.join(dir, 'DJI_0001_D.MP4');
    await writeFile(path.join(dir, 'DJI_0001_D.SRT'), '1\n00:00:00,000 --> 00:00:01,000\nF/2.8\n');
    expect(await chooseOutputPath(src, 'DJI_0001_D', 'srt', nobodyOwns)).toEqual({
      path: path.join(dir, 'DJI_0001_D.MP4.srt'),
      collided: true,
    });
    // Captions offer the name with their language first (caption-names.ts): players load it.
    expect(
      await chooseOutputPath(src, 'DJI_0001_D', 'srt', nobodyOwns, undefined, ['.srt'], undefined, 'en.srt'),
    ).toEqual({
      path: path.join(dir, 'DJI_0001_D.en.srt'),
      collided: true,
    });
    // That name held too: the source-extension fallback.
    await writeFile(path.join(dir, 'DJI_0001_D.EN.SRT'), 'someone else');
    expect(
      (await chooseOutputPath(src, 'DJI_0001_D', 'srt', nobodyOwns, undefined, ['.srt'], undefined, 'en.srt'))?.path,
    ).toBe(path.join(dir, 'DJI_0001_D.MP4.srt'));
    // Both spellings held by others (here, the fallback in another case): refused, nothing replaced.
    await writeFile(path.join(dir, 'dji_0001_d.mp4.SRT'), 'x');
    expect(await chooseOutputPath(src, 'DJI_0001_D', 'srt', nobodyOwns)).toBeNull();
    // A macOS (decomposed) name is the same file as its composed spelling.
    const nfd = 'Jürgen'.normalize('NFD');
    await writeFile(path.join(dir, `${nfd}.json`), 'user data');
    const found = await chooseOutputPath(path.join(dir, 'Jürgen.wav'), 'Jürgen'.normalize('NFC'), 'json', nobodyOwns);
    expect(found?.collided).toBe(true);
  });

  it("a file in another case that is Sluice's own is not a clash", async () => {
    const src = path.join(dir, 'C0001.MP4');
    const ours = path.join(dir, 'C0001.SRT');
    await writeFileAtomic(ours, 'ours');
    const owned = { isOurs: (p: string) => p === ours };
    expect(await chooseOutputPath(src, 'C0001', 'srt', owned)).toEqual({
      path: path.join(dir, 'C0001.srt'),
      collided: false,
    });
  });

  it('gives up when both names belong to someone else', async () => {
    const src = path.join(dir, 'take1.wav');
    await writeFile(path.join(dir, 'take1.json'), 'a');
    await writeFile(path.join(dir, 'take1.wav.json'), 'b');
    expect(await chooseOutputPath(src, 'take1', 'json', nobodyOwns)).toBeNull();
    expect((await stat(path.join(dir, 'take1.json'))).size).toBe(1);
  });
});
