// The real store code for a child process, transpiled with TypeScript's transpileModule (type
// stripping only; the store imports nothing but node built-ins, its own folder and the name folding at runtime).
// That avoids both tsx (not installed) and a full `tsc` build, which would also compile modules
// still in progress. Writes `job-store.mjs` and its imports into `work`.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect } from 'vitest';

const MODULES = [
  ['main/adapters/store/job-store.ts', 'job-store.mjs'],
  ['main/adapters/store/job-archive.ts', 'job-archive.js'],
  ['main/adapters/store/archive-index.ts', 'archive-index.js'],
  ['main/adapters/store/private-files.ts', 'private-files.js'],
  ['main/adapters/store/journal-lines.ts', 'journal-lines.js'],
  ['main/adapters/store/history-index.ts', 'history-index.js'],
  ['main/adapters/store/rows-file.ts', 'rows-file.js'],
  ['main/adapters/store/sqlite.ts', 'sqlite.js'],
  // History's index folds names with the screen's own function, from the engine's folder.
  ['main/engine/transcript/search-text.ts', 'search-text.js'],
] as const;

const MOVED: ReadonlyArray<[string, string]> = [
  ["from '../../engine/transcript/search-text.js'", "from './search-text.js'"],
];

export function transpileStore(work: string): void {
  const local = MODULES.slice(1).map(([, name]) => `from './${name}'`);
  for (const [from, to] of MODULES) {
    const js = ts
      .transpileModule(fs.readFileSync(path.resolve(from), 'utf8'), {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      })
      .outputText.replace(/from '[^']+'/g, (imp) => MOVED.find(([a]) => a === imp)?.[1] ?? imp);
    // Any other relative import would be missing in the child.
    expect(local.reduce((t, imp) => t.split(imp).join(''), js)).not.toMatch(/from '\.\.?\//);
    fs.writeFileSync(path.join(work, to), js);
  }
}
