#!/usr/bin/env node
// Entry point of the `sluice` command: runs the compiled CLI (built by `npm ci` through `prepare`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/main/cli/index.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  console.error(
    'sluice: the compiled CLI is missing. Run `npm ci` (or `npm run build:main`) in the project folder first.',
  );
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
