#!/usr/bin/env node
// Entry point of the `sluice` command: runs the CLI's one-file build (made by `npm ci` through
// `prepare`, and by `npm run build:main`; see scripts/bundle-cli.js).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/sluice.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  console.error(
    'sluice: the compiled CLI is missing. Run `npm ci` (or `npm run build:main`) in the project folder first.',
  );
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
