// Once per vitest run: the folder where generated media is kept by recipe (test/helpers/media.ts),
// so the files many tests make alike are made once. Removed when the run ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MEDIA_CACHE_ENV } from './helpers/media.js';

export default function setup(): () => void {
  const owned = !process.env[MEDIA_CACHE_ENV];
  const dir = process.env[MEDIA_CACHE_ENV] ?? mkdtempSync(path.join(tmpdir(), 'sluice-test-media-'));
  process.env[MEDIA_CACHE_ENV] = dir;
  return () => {
    if (owned) rmSync(dir, { recursive: true, force: true });
  };
}
