// Every rate and any start: what each writer puts in its file, read back by smpte-timecode or as
// an FCPXML rational, is the document's frames at the source timecode (moved back by whole hours
// where the clip would cross midnight, so no label goes back). Apple's DTD holds at each rate.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { renderAvid } from '../../../../main/engine/captions/editors/avid.js';
import { editorDocument, type EditorDocument } from '../../../../main/engine/captions/editors/document.js';
import { renderEdl } from '../../../../main/engine/captions/editors/edl.js';
import { renderFcpxml } from '../../../../main/engine/captions/editors/fcpxml.js';
import { renderItt } from '../../../../main/engine/captions/editors/itt.js';
import type { CaptionWord } from '../../../../main/engine/captions/normalize.js';
import type { FrameRate } from '../../../../main/engine/media-facts.js';
import { RATE_IDS, rateOf } from '../../../../main/engine/timecode/rates.js';
import { framesPerDay } from '../../../../common/timecode.js';
import { oracleFrames } from './scenarios.js';

const DTD = fileURLToPath(new URL('../../../fixtures/fcpxml/FCPXMLv1_8.dtd', import.meta.url));
const tmp = mkdtempSync(path.join(tmpdir(), 'sluice-all-rates-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const words = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 20, max: 900 }), fc.boolean()), {
    minLength: 1,
    maxLength: 30,
  })
  .map((steps) => {
    let t = 0;
    return steps.map(([gap, len, turn], i): CaptionWord => {
      const startMs = t + gap;
      t = startMs + len;
      return {
        text: `w${i}${i % 5 === 4 ? '.' : ''}`,
        startMs,
        endMs: t,
        speaker: turn ? 'A' : 'B',
        spaceBefore: true,
      };
    });
  });

function docAt(rate: FrameRate, startFrame: number, w: CaptionWord[]): EditorDocument {
  return editorDocument({
    sourcePath: '/m/clip.mov',
    transcript: { words: w, speakers: [], timeUnit: 'ms', text: '' },
    mediaFacts: {
      durationMs: null,
      hasAudio: true,
      videoRate: rate,
      start: { kind: 'frames', frames: startFrame, rate, from: 'tmcd' },
    },
  });
}

/** A timecode read back by the oracle, as frames after the timeline's start (never wrapping: labels only go forward). */
const since = (tc: string, start: number, rate: FrameRate): number => oracleFrames(tc, rate) - start;

/** The timeline starts at the source's timecode, or whole hours before it where the clip would cross midnight. */
function expectStartFrom(doc: EditorDocument, source: number, rate: FrameRate): number {
  const t = doc.timeline;
  const hour = framesPerDay(rate) / 24;
  expect(t.mediaStartFrame).toBe(source);
  expect(t.startFrame).toBeLessThanOrEqual(source);
  if (t.startFrame > 0) expect((source - t.startFrame) % hour).toBe(0);
  expect(t.notes.length).toBe(t.startFrame === source ? 0 : 1);
  return t.startFrame;
}

describe.each(RATE_IDS.map((id) => [id, rateOf(id)] as const))('at %s', (_id, rate) => {
  const start = fc.integer({ min: 0, max: framesPerDay(rate) - 1 });

  it('iTT, SubCap and EDL times are the document’s frames at the source timecode', () => {
    fc.assert(
      fc.property(start, words, (s, w) => {
        const doc = docAt(rate, s, w);
        const t0 = expectStartFrom(doc, s, rate);
        const dfText = (tc: string): string => (rate.dropFrame ? tc.replace(/:(\d\d)$/, ';$1') : tc);
        const itt = [...renderItt(doc).matchAll(/<p begin="([^"]+)" end="([^"]+)"/g)];
        expect(itt.map((m) => [since(dfText(m[1]!), t0, rate), since(dfText(m[2]!), t0, rate)])).toEqual(
          doc.captions.map((c) => [c.start, c.end]),
        );
        const avid = [...renderAvid(doc).matchAll(/^(\S+:\d\d[:;]\d\d) (\S+)$/gm)];
        expect(avid.map((m) => [since(m[1]!, t0, rate), since(m[2]!, t0, rate)])).toEqual(
          doc.captions.map((c) => [c.start, c.end]),
        );
        const edl = [...renderEdl(doc)[0]!.matchAll(/^\d{3} .* (\S+) (\S+) {2}$/gm)];
        // Resolve keeps one marker per frame: the EDL has each frame a marker is on, once.
        expect(edl.map((m) => since(m[1]!, t0, rate))).toEqual([...new Set(doc.markers.map((m) => m.frame))]);
      }),
      { numRuns: 40 },
    );
  });

  it('FCPXML: every time on the frame grid, the asset at the start; valid against the DTD', () => {
    let last = '';
    fc.assert(
      fc.property(start, words, (s, w) => {
        const doc = docAt(rate, s, w);
        last = renderFcpxml(doc);
        const times = [...last.matchAll(/ (?:start|offset|duration|tcStart)="(\d+)(?:\/(\d+))?s"/g)];
        for (const [, n, d] of times)
          expect((BigInt(n!) * BigInt(rate.num)) % (BigInt(d ?? '1') * BigInt(rate.den))).toBe(0n);
        const asset = / <asset [^>]* start="(\d+)(?:\/(\d+))?s"/.exec(last);
        expect(asset).not.toBeNull();
        expect(Number((BigInt(asset![1]!) * BigInt(rate.num)) / (BigInt(asset![2] ?? '1') * BigInt(rate.den)))).toBe(s);
      }),
      { numRuns: 40 },
    );
    const file = path.join(tmp, `${rate.num}-${rate.den}-${rate.dropFrame}.fcpxml`);
    writeFileSync(file, last);
    execFileSync('xmllint', ['--noout', '--dtdvalid', DTD, file], { stdio: 'pipe' });
  });
});
