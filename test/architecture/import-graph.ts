// The source tree's import graph, read with the TypeScript parser: every relative import and
// re-export of main/, common/, preload/ and the renderer, type-only ones included (they still tie
// the modules). Shared by the architecture tests (cycles, floors).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const SOURCE_DIRS = ['main', 'common', 'preload', 'renderer/src'];

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|svelte)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, path.join(base, 'index.ts')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** The source files `file` imports (absolute paths), in its own order. */
export function importsOf(file: string): string[] {
  let text = readFileSync(file, 'utf8');
  if (file.endsWith('.svelte'))
    text = [...text.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) && !ts.isExportDeclaration(st)) continue;
    const spec = st.moduleSpecifier;
    if (!spec || !ts.isStringLiteral(spec)) continue;
    const target = resolveImport(file, spec.text);
    if (target) out.push(target);
  }
  return out;
}

let graph: ReadonlyMap<string, readonly string[]> | undefined;

/** Every source file and what it imports (read once per test file). */
export function importGraph(): ReadonlyMap<string, readonly string[]> {
  graph ??= new Map(SOURCE_DIRS.flatMap((d) => sourceFiles(path.join(ROOT, d))).map((f) => [f, importsOf(f)] as const));
  return graph;
}
