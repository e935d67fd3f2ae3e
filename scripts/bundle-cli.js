#!/usr/bin/env node
// The `sluice` command as one build (dist/cli), made from the compiled modules in dist/main after
// `tsc`. Started from some 350 separate modules, a command spent most of its start-up finding,
// reading and compiling them (measured: a 1 KB WAV end to end 1.17 s from the modules, 0.98 s from
// this build). Each command's own code stays a chunk of its own, loaded when that command runs.
//
// Left outside: Node's own modules, the native modules (better-sqlite3, keytar: a .node file beside
// their JavaScript), and mediainfo.js, whose WebAssembly is found beside its own module. Packages a
// module loads by `createRequire` when it needs them (Ajv, xmlbuilder2) are resolved at that time.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist', 'cli');

rmSync(out, { recursive: true, force: true });
const bundle = await rolldown({
  input: path.join(root, 'dist', 'main', 'cli', 'index.js'),
  platform: 'node',
  external: [/^node:/, 'better-sqlite3', 'keytar', 'mediainfo.js'],
  logLevel: 'warn',
});
await bundle.write({
  dir: out,
  format: 'esm',
  entryFileNames: 'sluice.js',
  chunkFileNames: '[name]-[hash].js',
});
await bundle.close();
