// `sluice watch`'s lines for files left alone: named up to a limit per folder, then one line.
import { expect, it } from 'vitest';
import { SKIPS_LISTED, SkipLines } from '../../main/cli/skip-lines.js';

it('names each file left alone up to the limit per folder, then says once that the rest are not listed', () => {
  const lines = new SkipLines((id) => (id === 'f1' ? '/news/in' : id));
  const said: string[] = [];
  for (let i = 0; i < SKIPS_LISTED + 5; i++) {
    const line = lines.line({ folderId: 'f1', path: `/news/in/clip ${i}.wav`, outcome: 'already-done' });
    if (line !== undefined) said.push(line);
  }
  expect(said).toHaveLength(SKIPS_LISTED + 1);
  expect(said[0]).toBe('already processed /news/in/clip 0.wav');
  expect(said[SKIPS_LISTED - 1]).toBe(`already processed /news/in/clip ${SKIPS_LISTED - 1}.wav`);
  expect(said[SKIPS_LISTED]).toBe('folder /news/in: more files already processed or queued, not listed');
  // Another folder has its own count; a queued file says so.
  expect(lines.line({ folderId: 'f2', path: '/promos/a.mov', outcome: 'already-queued' })).toBe(
    'already queued /promos/a.mov',
  );
});
