import { describe, expect, it } from 'vitest';
import { classifyDetected, sameContent, type FileIdentity } from '../../main/engine/file-identity.js';

const f = (p: Partial<FileIdentity> = {}): FileIdentity => ({ path: '/a.mp3', size: 10, mtimeMs: 1000.25, ...p });

describe('sameContent', () => {
  it.each([
    { name: 'identical', a: f(), b: f(), want: true },
    { name: 'size differs', a: f(), b: f({ size: 11 }), want: false },
    { name: 'mtime differs', a: f(), b: f({ mtimeMs: 2000 }), want: false },
    { name: 'sub-ms mtime rounding ignored', a: f(), b: f({ mtimeMs: 1000.9 }), want: true },
    {
      name: 'hashes equal decide even if mtime moved (touch)',
      a: f({ contentHash: 'h' }),
      b: f({ contentHash: 'h', mtimeMs: 9 }),
      want: true,
    },
    {
      name: 'hashes differ decide even if size+mtime match',
      a: f({ contentHash: 'h' }),
      b: f({ contentHash: 'x' }),
      want: false,
    },
    { name: 'one hash missing: fall back to stat', a: f({ contentHash: 'h' }), b: f(), want: true },
    { name: 'path is not content', a: f(), b: f({ path: '/b.mp3' }), want: true },
  ])('$name', ({ a, b, want }) => expect(sameContent(a, b)).toBe(want));
});

describe('classifyDetected', () => {
  it.each([
    { name: 'never seen → new', known: undefined, detected: f(), want: { kind: 'new' } },
    {
      name: 'same → unchanged',
      known: { jobId: 'j', source: f() },
      detected: f(),
      want: { kind: 'unchanged', jobId: 'j' },
    },
    {
      name: 'rewritten → changed',
      known: { jobId: 'j', source: f() },
      detected: f({ size: 99 }),
      want: { kind: 'changed', jobId: 'j' },
    },
  ])('$name', ({ known, detected, want }) => expect(classifyDetected(detected, known)).toEqual(want));
});
