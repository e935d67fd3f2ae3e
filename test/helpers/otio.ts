// OpenTimelineIO 0.18.1 and its FCPXML, xmeml and CMX 3600 adapters (../shared/tools/otio, see its
// README): independent readers of the editor files. A user's clone has no ../shared, so tests that
// use them skip there, saying why.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const OTIO = path.resolve(ROOT, '../shared/tools/otio');
export const hasOtio = existsSync(OTIO);

/**
 * Runs a Python script with OpenTimelineIO on its path and answers what it printed, as JSON. Its
 * libraries' version links are stored as small files naming their target, so a folder of real links
 * to them (made in `scratch`) is put first on the library path.
 */
export function runOtio<T>(script: string, args: readonly string[], scratch: string): T {
  const lib = path.join(OTIO, 'py/lib');
  const links = mkdtempSync(path.join(scratch, 'otio-lib-'));
  for (const name of readdirSync(lib)) {
    const file = path.join(lib, name);
    const target = statSync(file).size < 100 ? path.join(lib, readFileSync(file, 'utf8').trim()) : file;
    symlinkSync(target, path.join(links, name));
  }
  const src = (p: string): string => path.join(OTIO, 'src', p);
  const env = {
    ...process.env,
    PYTHONPATH: [
      path.join(OTIO, 'py'),
      src('otio-cmx3600-adapter/src'),
      src('otio-fcp-adapter/src'),
      src('otio-fcpx-xml-adapter/src'),
      src('pycmx/src'),
    ].join(':'),
    LD_LIBRARY_PATH: [links, lib, process.env.LD_LIBRARY_PATH ?? ''].join(':'),
  };
  const out = execFileSync('python3', ['-c', script, ...args], { env, maxBuffer: 64 << 20 }).toString();
  return JSON.parse(out) as T;
}
