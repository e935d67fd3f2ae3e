// Every editor format, read back with a real parser (xmllint against Apple's DTD, imsc.js,
// fast-xml-parser, smpte-timecode) and checked against frames computed independently: anchored at
// the source timecode and on the frame grid, for the three sources of scenarios.ts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { fromXML } from 'imsc/src/main/js/doc.js';
import { generateISD } from 'imsc/src/main/js/isd.js';
import { afterAll, describe, expect, it } from 'vitest';
import { renderAvid, SUBCAP_HEADER } from '../../../../main/engine/captions/editors/avid.js';
import { editorDocument } from '../../../../main/engine/captions/editors/document.js';
import { renderEdl } from '../../../../main/engine/captions/editors/edl.js';
import { renderFcpxml } from '../../../../main/engine/captions/editors/fcpxml.js';
import { renderItt } from '../../../../main/engine/captions/editors/itt.js';
import { renderPremiere } from '../../../../main/engine/captions/editors/premiere.js';
import { renderTtml } from '../../../../main/engine/captions/editors/ttml.js';
import type { FrameRate } from '../../../../main/engine/media-facts.js';
import {
  CUES,
  expectedCaptions,
  floorFrame,
  oracleFrames,
  oracleTimecode,
  SCENARIOS,
  TRANSCRIPT,
  TURNS,
  type Scenario,
} from './scenarios.js';

const DTD = fileURLToPath(new URL('../../../fixtures/fcpxml/FCPXMLv1_8.dtd', import.meta.url));
const tmp = mkdtempSync(path.join(tmpdir(), 'sluice-editors-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (name) => ['caption', 'marker', 'p', 'clipitem', 'track'].includes(name),
  trimValues: false,
});

const docOf = (s: Scenario) =>
  editorDocument({ sourcePath: s.sourcePath, transcript: TRANSCRIPT, mediaFacts: s.facts, language: 'en' });

/** An FCPXML time → frames, failing unless it sits exactly on the rate's frame grid. */
function gridFrames(time: string, r: FrameRate): number {
  const m = /^(\d+)(?:\/(\d+))?s$/.exec(time);
  if (!m) throw new Error(`not an FCPXML time: ${time}`);
  const n = BigInt(m[1]!) * BigInt(r.num);
  const d = BigInt(m[2] ?? '1') * BigInt(r.den);
  expect(n % d, `${time} is off the ${r.num}/${r.den} grid`).toBe(0n);
  return Number(n / d);
}

type Attrs = Record<string, string>;

/** The text an imsc.js ISD shows: its spans' text, a line feed for each <br/>. */
function shownText(isd: unknown): string {
  const out: string[] = [];
  const walk = (n: unknown): void => {
    if (typeof n !== 'object' || n === null) return;
    const node = n as { text?: unknown; kind?: unknown; contents?: unknown[] };
    if (typeof node.text === 'string') out.push(node.text);
    if (node.kind === 'br') out.push('\n');
    node.contents?.forEach(walk);
  };
  walk(isd);
  return out.join('');
}

describe.each(SCENARIOS)('$name', (s) => {
  const doc = docOf(s);
  const expected = expectedCaptions(s.rate);
  const markerFrames = TURNS.map((t) => floorFrame(t.ms, s.rate));

  it('the document sits at the source timecode the oracle reads', () => {
    expect(doc.timeline.startFrame).toBe(s.startFrame);
    expect(oracleTimecode(doc.timeline.startFrame, s.rate)).toBe(s.startText);
    expect(doc.captions).toHaveLength(CUES.length);
  });

  it('fcpxml: valid against Apple’s 1.8 DTD, asset start = source timecode, captions and markers on the grid', () => {
    const text = renderFcpxml(doc);
    const file = path.join(tmp, `${s.startFrame}.fcpxml`);
    writeFileSync(file, text);
    execFileSync('xmllint', ['--noout', '--dtdvalid', DTD, file], { stdio: 'pipe' });

    const root = xml.parse(text) as { fcpxml: Record<string, unknown> & { version: string } };
    expect(root.fcpxml.version).toBe('1.8');
    const res = root.fcpxml.resources as { format: Attrs; asset: Attrs };
    expect(res.format.frameDuration).toBe(`${s.rate.den}/${s.rate.num}s`);
    expect(gridFrames(res.asset.start!, s.rate)).toBe(s.startFrame);
    expect(decodeURIComponent(res.asset.src!)).toBe(`file://${s.sourcePath}`);
    expect(res.asset.hasVideo).toBe(s.facts.videoRate ? '1' : '0');
    const seq = (
      root.fcpxml.library as { event: { project: { sequence: Attrs & { spine: Record<string, unknown> } } } }
    ).event.project.sequence;
    expect(gridFrames(seq.tcStart!, s.rate)).toBe(s.startFrame);
    expect(seq.tcFormat).toBe(s.rate.dropFrame ? 'DF' : 'NDF');
    const clip = seq.spine['asset-clip'] as Attrs & { caption: Array<Attrs & { text: unknown }>; marker: Attrs[] };
    expect(gridFrames(clip.start!, s.rate)).toBe(s.startFrame);
    expect(gridFrames(clip.offset!, s.rate)).toBe(s.startFrame);
    clip.caption.forEach((c, i) => {
      expect(c.role).toBe('iTT?captionFormat=ITT.en');
      expect(c.lane).toBe('1');
      const start = gridFrames(c.offset!, s.rate) - s.startFrame;
      expect({ start, end: start + gridFrames(c.duration!, s.rate) }).toEqual(expected[i]);
    });
    expect(clip.marker.map((m) => [gridFrames(m.start!, s.rate) - s.startFrame, m.value])).toEqual(
      TURNS.map((t, i) => [markerFrames[i], t.name]),
    );
    expect(clip.marker[1]!.note).toBe('Thanks for having me & <all> of you.');
    expect(clip.marker.every((m) => gridFrames(m.duration!, s.rate) === 1)).toBe(true);
  });

  it('itt: smpte time base at the nominal rate and multiplier, times in source timecode without ;', () => {
    const text = renderItt(doc);
    const tt = (xml.parse(text) as { tt: Attrs & { body: { div: { p: Array<Attrs> } } } }).tt;
    expect(tt['ttp:timeBase']).toBe('smpte');
    expect(Number(tt['ttp:frameRate'])).toBe(Math.round(s.rate.num / s.rate.den));
    expect(tt['ttp:frameRateMultiplier']).toBe(s.rate.den === 1001 ? '1000 1001' : undefined);
    expect(tt['ttp:dropMode']).toBe(s.rate.dropFrame ? 'dropNTSC' : 'nonDrop');
    expect(tt['xml:lang']).toBe('en');
    const ps = tt.body.div.p;
    expect(ps.flatMap((p) => [p.begin, p.end]).join(' ')).not.toContain(';');
    expect(ps).toHaveLength(expected.length);
    ps.forEach((p, i) => {
      // The oracle reads `:` as non-drop unless told: iTT says drop-frame in ttp:dropMode.
      const read = (tc: string): number =>
        oracleFrames(s.rate.dropFrame ? tc.replace(/:(\d\d)$/, ';$1') : tc, s.rate) - s.startFrame;
      expect({ start: read(p.begin!), end: read(p.end!) }).toEqual(expected[i]);
    });
  });

  it('ttml: loads in imsc.js; each caption shows from its first frame to its last, in media time', () => {
    const text = renderTtml(doc);
    const problems: string[] = [];
    const handler = { error: (m: string) => !!problems.push(m), fatal: (m: string) => !!problems.push(m) };
    const tt = fromXML(text, handler);
    expect(problems).toEqual([]);
    expect(tt).not.toBeNull();
    const events = tt!.getMediaTimeEvents();
    const frameOf = (seconds: number): number => Math.floor(seconds * (s.rate.num / s.rate.den) + 1e-9);
    for (const [i, e] of expected.entries()) {
      const begin = events.find((t) => frameOf(t) === e.start && t >= (e.start * s.rate.den) / s.rate.num);
      expect(begin, `caption ${i} begins on frame ${e.start}`).toBeDefined();
      expect(events.some((t) => frameOf(t) === e.end)).toBe(true);
      const middle = ((e.start + e.end) / 2) * (s.rate.den / s.rate.num);
      const shown = JSON.stringify(generateISD(tt!, middle, handler));
      expect(shown).toContain(CUES[i]!.words[0]!.text.replace(/[<>&]/g, ''));
      // One frame before its first, nothing of it is on screen.
      const before = JSON.stringify(generateISD(tt!, (e.start - 0.5) * (s.rate.den / s.rate.num), handler));
      expect(before).not.toContain(JSON.stringify(CUES[i]!.words[0]!.text).slice(1, -1));
    }
    expect(events.length).toBeGreaterThanOrEqual(expected.length);
    // On screen, each caption's lines as laid out, nothing added around them.
    doc.captions.forEach((c) => {
      const at = ((c.start + c.end) / 2) * (s.rate.den / s.rate.num);
      expect(shownText(generateISD(tt!, at, handler))).toBe(c.lines.join('\n'));
    });
  });

  it('edl: Resolve marker events at the timeline timecode, one frame long, FCM as the media counts', () => {
    const files = renderEdl(doc);
    expect(files).toHaveLength(1);
    const text = files[0]!;
    const lines = text.split('\n');
    expect(lines[1]).toBe(`FCM: ${s.rate.dropFrame ? 'DROP FRAME' : 'NON-DROP FRAME'}`);
    const events = [
      ...text.matchAll(/^(\d{3}) +(\S+) +V +C +(\S+) (\S+) (\S+) (\S+) *\n \|C:(\S+) \|M:(.+) \|D:(\d+)$/gm),
    ];
    expect(events).toHaveLength(TURNS.length);
    events.forEach((e, i) => {
      const [, num, , srcIn, srcOut, recIn, recOut, colour, name, dur] = e;
      expect(num).toBe(String(i + 1).padStart(3, '0'));
      expect(oracleFrames(recIn!, s.rate)).toBe(s.startFrame + markerFrames[i]!);
      expect(oracleFrames(recOut!, s.rate) - oracleFrames(recIn!, s.rate)).toBe(1);
      expect([srcIn, srcOut]).toEqual([recIn, recOut]);
      expect(colour).toMatch(/^ResolveColor(Blue|Green|Red|Purple|Yellow)$/);
      expect(name).not.toMatch(/^\d/);
      expect(Number(dur)).toBe(1);
    });
    expect(events[1]![8]).toBe('Marker 2nd Host');
    expect(events[0]![7]).toBe(events[2]![7]);
    expect(events[0]![7]).not.toBe(events[1]![7]);
  });

  it('premiere: an xmeml sequence at the media rate, starting at its timecode, markers in sequence frames', () => {
    const text = renderPremiere(doc);
    const seq = (xml.parse(text) as { xmeml: { version: string; sequence: Record<string, unknown> } }).xmeml.sequence;
    const rate = seq.rate as { timebase: number; ntsc: string };
    expect(rate.timebase).toBe(Math.round(s.rate.num / s.rate.den));
    expect(rate.ntsc).toBe(s.rate.den === 1001 ? 'TRUE' : 'FALSE');
    const tc = seq.timecode as { string: string; frame: number; displayformat: string };
    expect(oracleFrames(tc.string, s.rate)).toBe(s.startFrame);
    expect(tc.frame).toBe(s.startFrame);
    expect(tc.displayformat).toBe(s.rate.dropFrame ? 'DF' : 'NDF');
    const markers = seq.marker as Array<{ name: string; comment: string; in: number; out: number }>;
    expect(markers.map((m) => [m.name, m.in, m.out])).toEqual(TURNS.map((t, i) => [t.name, markerFrames[i], -1]));
    const media = seq.media as { video?: { track: Array<{ clipitem: Array<{ file: { pathurl?: string } }> }> } };
    expect(media.video !== undefined).toBe(s.facts.videoRate !== null);
  });

  it('avid: a SubCap file with frame timecodes at the source timecode', () => {
    const text = renderAvid(doc);
    const lines = text.split('\n');
    expect(lines[0]).toBe(SUBCAP_HEADER);
    expect(lines).toContain('<begin subtitles>');
    expect(lines).toContain('<end subtitles>');
    const body = text.slice(text.indexOf('<begin subtitles>') + 17, text.indexOf('<end subtitles>'));
    const blocks = body.trim().split(/\n\n/);
    expect(blocks).toHaveLength(expected.length);
    blocks.forEach((b, i) => {
      const [times, ...textLines] = b.split('\n');
      const [a, z] = times!.split(' ');
      expect({ start: oracleFrames(a!, s.rate) - s.startFrame, end: oracleFrames(z!, s.rate) - s.startFrame }).toEqual(
        expected[i],
      );
      expect(textLines.length).toBeGreaterThan(0);
    });
  });
});
