// The real store code for a child process, transpiled with TypeScript's transpileModule (type
// stripping only). That avoids both tsx (not installed) and a full `tsc` build, which would also
// compile modules still in progress. Starting at the job store, every relative import is followed
// and written flat into `work` under its own name (`job-store.mjs` for the entry), so a module split
// in two never leaves the child with a missing file.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect } from 'vitest';

const ENTRY = 'main/adapters/store/journal/job-store.ts';

function transpile(file: string): string {
  return ts.transpileModule(fs.readFileSync(file, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
  }).outputText;
}

export function transpileStore(work: string): void {
  const entry = path.resolve(ENTRY);
  const written = new Map<string, string>(); // source .ts → flat name in `work`
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (written.has(file)) continue;
    const name = file === entry ? 'job-store.mjs' : `${path.basename(file, '.ts')}.js`;
    expect([...written.values()], `two store modules named ${name}`).not.toContain(name);
    written.set(file, name);
    const js = transpile(file).replace(/from '(\.\.?\/[^']+)\.js'/g, (_imp, rel: string) => {
      const target = path.resolve(path.dirname(file), `${rel}.ts`);
      expect(fs.existsSync(target), `${path.relative(process.cwd(), file)} imports ${rel}.js`).toBe(true);
      pending.push(target);
      return `from './${path.basename(target, '.ts')}.js'`;
    });
    // Every relative import left must be one written above (a path without `.js` would not resolve).
    expect(js).not.toMatch(/from '\.\.?\/(?![^'/]+\.js')/);
    fs.writeFileSync(path.join(work, name), js);
  }
  // The store must stay small enough to run alone: a guard against pulling in the whole app.
  expect(written.size).toBeLessThan(20);
}
