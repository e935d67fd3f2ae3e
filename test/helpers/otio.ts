// OpenTimelineIO 0.18.1 and its FCPXML, xmeml and CMX 3600 readers from ../shared/tools/otio (see its
// README): a Python script run with them on the path. Their libraries' version links are stored as
// small files naming their target, so a folder of real links to them is put first on the library
// path. Absent in a user's clone: tests that use them skip, saying why.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';

export const OTIO_DIR = path.resolve(import.meta.dirname, '../../../shared/tools/otio');
export const HAS_OTIO = existsSync(OTIO_DIR);

/** Runs `script` (Python) with OpenTimelineIO and its adapters importable; returns its stdout. */
export function runOtioPython(script: string, args: readonly string[], scratch: string): string {
  const lib = path.join(OTIO_DIR, 'py/lib');
  const links = mkdtempSync(path.join(scratch, 'otio-lib-'));
  for (const name of readdirSync(lib)) {
    const file = path.join(lib, name);
    const target = statSync(file).size < 100 ? path.join(lib, readFileSync(file, 'utf8').trim()) : file;
    symlinkSync(target, path.join(links, name));
  }
  const src = (p: string): string => path.join(OTIO_DIR, 'src', p);
  const env = {
    ...process.env,
    PYTHONPATH: [
      path.join(OTIO_DIR, 'py'),
      src('otio-cmx3600-adapter/src'),
      src('otio-fcp-adapter/src'),
      src('otio-fcpx-xml-adapter/src'),
      src('pycmx/src'),
    ].join(':'),
    LD_LIBRARY_PATH: [links, lib, process.env.LD_LIBRARY_PATH ?? ''].join(':'),
  };
  return execFileSync('python3', ['-c', script, ...args], { env }).toString();
}
