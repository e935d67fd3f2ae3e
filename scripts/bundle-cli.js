#!/usr/bin/env node
// The `sluice` command as one build (dist/cli), made from the compiled modules in dist/main after
// `tsc`. Started from some 350 separate modules, a command spent most of its start-up finding,
// reading and compiling them (measured: a 1 KB WAV end to end 1.22 s from the modules, 1.01 s from
// this build, interleaved medians of 11). Each command's own code stays a chunk of its own, loaded when that command runs.
//
// Left outside: Node's own modules, the native modules (better-sqlite3, keytar: a .node file beside
// their JavaScript), and mediainfo.js, whose WebAssembly is found beside its own module. Packages a
// module loads by `createRequire` when it needs them (Ajv, xmlbuilder2) are resolved at that time.
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist', 'cli');
const ENTRY = 'sluice.js';

const bundle = await rolldown({
  input: path.join(root, 'dist', 'main', 'cli', 'index.js'),
  platform: 'node',
  external: [/^node:/, 'better-sqlite3', 'keytar', 'mediainfo.js'],
  logLevel: 'warn',
});
// Whitespace and comments out, names kept (no mangling, no rewriting): a stack trace still names
// its functions, and the command reads and parses 3.6 MB instead of 5.3 (measured: 50 ms sooner).
const { output } = await bundle.generate({
  format: 'esm',
  entryFileNames: ENTRY,
  chunkFileNames: '[name]-[hash].js',
  minify: { compress: false, mangle: false, codegen: { removeWhitespace: true } },
});
await bundle.close();

// Each file is written beside its place and renamed into it, the entry last, and only then are the
// chunks of an earlier build removed: a command started meanwhile (tests build while others run
// the command) finds either build whole, never a file half-written or a chunk it needs gone.
mkdirSync(out, { recursive: true });
const files = output
  .filter((o) => o.type === 'chunk')
  .sort((a, b) => Number(a.fileName === ENTRY) - Number(b.fileName === ENTRY));
for (const chunk of files) {
  const target = path.join(out, chunk.fileName);
  const temp = `${target}.${process.pid}.tmp`;
  writeFileSync(temp, chunk.code);
  renameSync(temp, target);
}
const made = new Set(files.map((f) => f.fileName));
for (const name of readdirSync(out))
  if (!made.has(name) && !name.endsWith('.tmp')) rmSync(path.join(out, name), { force: true });
