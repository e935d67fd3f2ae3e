// The ffmetadata file is only worth anything if ffmpeg reads it: run the command the issue and the
// README give (`ffmpeg -i in -i name.ffmetadata -map_metadata 1 -codec copy out`), the streams
// copied untouched, into each container it names (MP4, M4A, MP3), and read the chapters back with
// ffprobe.
import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderFfmetadata } from '../../../main/engine/recipes/chapter-formats.js';
import { makeM4a, makeMediaDir, makeMp3, makeMp4 } from '../../helpers/media.js';

const run = promisify(execFile);

interface Probed {
  chapters: Array<{ start_time: string; end_time: string; tags: { title: string } }>;
  format: { tags?: Record<string, string> };
  streams: Array<{ codec_name: string }>;
}

const probe = async (file: string): Promise<Probed> =>
  JSON.parse(
    (await run('ffprobe', ['-v', 'error', '-show_chapters', '-show_format', '-show_streams', '-of', 'json', file]))
      .stdout,
  ) as Probed;

describe('ffmetadata with real ffmpeg', () => {
  let dir: string;
  let meta: string;
  const chapters = [
    { title: 'Intro', startMs: 0 },
    { title: 'Rivers; bridges = #1 \\ and more', startMs: 12_340 },
    { title: 'Zoë’s story', startMs: 25_000 },
  ];
  beforeAll(async () => {
    dir = await makeMediaDir();
    meta = join(dir, 'talk.ffmetadata');
    await writeFile(meta, renderFfmetadata(chapters, 40_000, 'Episode 1')!);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['M4A', makeM4a, 'm4a'],
    ['MP4', makeMp4, 'mp4'],
    ['MP3', makeMp3, 'mp3'],
  ])('-map_metadata 1 -codec copy writes the chapters, titles and times intact into an %s', async (_, make, ext) => {
    const input = await make(dir, `in.${ext}`, 40);
    const out = join(dir, `out.${ext}`);
    await run('ffmpeg', ['-v', 'error', '-y', '-i', input, '-i', meta, '-map_metadata', '1', '-codec', 'copy', out]);
    const before = await probe(input);
    const after = await probe(out);
    expect(before.chapters).toEqual([]);
    // Copied, not re-encoded: the same streams with the same codecs.
    // (MP4 holds its chapters in a text track of its own besides.)
    const media = (p: Probed) => p.streams.map((s) => s.codec_name).filter((c) => c !== 'bin_data');
    expect(media(after)).toEqual(media(before));
    const got = after.chapters.map((c) => [Number(c.start_time), Number(c.end_time), c.tags.title]);
    expect(got).toHaveLength(3);
    // MP3's ID3 chapters and MP4's chapter track keep milliseconds; allow a frame's rounding.
    const want: Array<[number, number, string]> = [
      [0, 12.34, 'Intro'],
      [12.34, 25, 'Rivers; bridges = #1 \\ and more'],
      [25, 40, 'Zoë’s story'],
    ];
    got.forEach(([start, end, title], i) => {
      expect(title).toBe(want[i]![2]);
      expect(start as number).toBeCloseTo(want[i]![0], 1);
      expect(end as number).toBeCloseTo(want[i]![1], 1);
    });
    const tags = Object.fromEntries(Object.entries(after.format.tags ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    expect(tags.title).toBe('Episode 1');
  });
});
