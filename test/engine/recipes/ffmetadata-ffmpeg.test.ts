// The ffmetadata file is only worth anything if ffmpeg reads it: mux it into an M4A with the
// command the show notes suggest and read the chapters back with ffprobe.
import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderFfmetadata } from '../../../main/engine/recipes/chapter-formats.js';
import { makeMediaDir, makeToneWav } from '../../helpers/media.js';

const run = promisify(execFile);

describe('ffmetadata with real ffmpeg', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await makeMediaDir();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('ffmpeg -map_metadata 1 writes the chapters, titles and times intact, into an M4A', async () => {
    const wav = await makeToneWav(dir, 'tone.wav', 40);
    const meta = join(dir, 'tone.ffmetadata');
    const chapters = [
      { title: 'Intro', startMs: 0 },
      { title: 'Rivers; bridges = #1 \\ and more', startMs: 12_340 },
      { title: 'Zoë’s story', startMs: 25_000 },
    ];
    await writeFile(meta, renderFfmetadata(chapters, 40_000, 'Episode 1')!);
    const out = join(dir, 'tone.m4a');
    await run('ffmpeg', ['-v', 'error', '-y', '-i', wav, '-i', meta, '-map_metadata', '1', '-c:a', 'aac', out]);
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_chapters', '-show_format', '-of', 'json', out]);
    const probed = JSON.parse(stdout) as {
      chapters: Array<{ start_time: string; end_time: string; tags: { title: string } }>;
      format: { tags?: { title?: string } };
    };
    expect(probed.chapters.map((c) => [Number(c.start_time), Number(c.end_time), c.tags.title])).toEqual([
      [0, 12.34, 'Intro'],
      [12.34, 25, 'Rivers; bridges = #1 \\ and more'],
      [25, 40, 'Zoë’s story'],
    ]);
    expect(probed.format.tags?.title).toBe('Episode 1');
  });
});
