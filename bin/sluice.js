#!/usr/bin/env node
// Entry point of the `sluice` command: runs the CLI's one-file build (made by `npm ci` through
// `prepare`, and by `npm run build:main`; see scripts/bundle-cli.js).
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

// From Node 22.1 V8's compiled code of the build is kept on disk (in the temp folder), so a command
// does not compile its 3 MB again each time it starts (under Node 24: 0.1 s of a 0.5 s start).
module.enableCompileCache?.();

const entry = new URL('../dist/cli/sluice.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  console.error(
    'sluice: the compiled CLI is missing. Run `npm ci` (or `npm run build:main`) in the project folder first.',
  );
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
