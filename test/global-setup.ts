// Once per vitest run: the run's folder (helpers/run-folder.ts), where generated media is kept by
// recipe and the CLI build is made once. Removed when the run ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RUN_FOLDER_ENV } from './helpers/run-folder.js';

export default function setup(): () => void {
  const owned = !process.env[RUN_FOLDER_ENV];
  const dir = process.env[RUN_FOLDER_ENV] ?? mkdtempSync(path.join(tmpdir(), 'sluice-test-run-'));
  process.env[RUN_FOLDER_ENV] = dir;
  return () => {
    if (owned) rmSync(dir, { recursive: true, force: true });
  };
}
