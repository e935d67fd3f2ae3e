// Files of the installed package (its package.json, the built interface), found from this module's
// own place: the command runs from the one-file build (dist/cli) or, in tests and without that
// build, from the compiled modules (dist/main/cli), at a different depth below the package's root.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let found: { dir: string; version: string } | undefined;

/** The nearest folder above this module holding Sluice's package.json, and its version (read once). */
function packageRoot(): { dir: string; version: string } {
  if (found) return found;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version: string };
      if (pkg.name === 'sluice') {
        found = { dir, version: pkg.version };
        return found;
      }
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`Sluice's package.json was not found above ${fileURLToPath(import.meta.url)}.`);
    dir = up;
  }
}

/** A path inside the package, e.g. `packagePath('dist', 'renderer')`. */
export function packagePath(...parts: string[]): string {
  return path.join(packageRoot().dir, ...parts);
}

export function packageVersion(): string {
  return packageRoot().version;
}
