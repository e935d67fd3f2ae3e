// Gaps and title cards in a string-out: edited as rows like bites, kept beside the selects (an old
// list without them loads unchanged), placed on the timeline so every record time after them counts
// them, and written by each format as it can say them.
import { describe, expect, it } from 'vitest';
import type { MediaFacts } from '../../../main/engine/media-facts.js';
import { editList } from '../../../main/engine/selects/list-edits.js';
import {
  addSelect,
  emptyList,
  SELECT_LIST,
  SelectError,
  type SelectList,
} from '../../../main/engine/selects/selects.js';
import { rowsOf } from '../../../main/engine/selects/rows.js';
import { stringOut, timelineLength, type ClipSource } from '../../../main/engine/selects/string-out.js';
import { renderOtio } from '../../../main/engine/selects/otio.js';
import { renderStringOutFcpxml } from '../../../main/engine/selects/fcpxml.js';
import { renderStringOutXmeml } from '../../../main/engine/selects/xmeml.js';
import { renderStringOutEdl } from '../../../main/engine/selects/edl.js';
import { renderScriptTxt, scriptOf } from '../../../main/engine/selects/script.js';
import type { Transcript, TranscriptWord } from '../../../main/engine/transcript/transcript.js';

function transcriptOf(text: string): Transcript {
  const words: TranscriptWord[] = text.split(' ').map((w, i) => ({
    text: w,
    startMs: 1000 + i * 500,
    endMs: 1400 + i * 500,
    speaker: 'S0',
    spaceBefore: true,
    corrected: false,
  }));
  return { words, speakers: ['S0'], names: {}, text };
}

const t = transcriptOf('we start with the budget and then the schedule');
const pal = { num: 25, den: 1, dropFrame: false };
const facts: MediaFacts = {
  durationMs: 60_000,
  hasAudio: true,
  videoRate: pal,
  frameSize: { width: 160, height: 120 },
  start: { kind: 'frames', frames: 90_000, rate: pal, from: 'tmcd' },
};
const clips = new Map<string, ClipSource>([['j1', { jobId: 'j1', path: '/m/cam.mov', transcript: t, facts }]]);

function listOf(...ranges: Array<[number, number]>): SelectList {
  return ranges.reduce((l, range, i) => addSelect(l, t, { id: `s${i + 1}`, jobId: 'j1', range }), emptyList('Cut'));
}
const ids = (l: SelectList): string[] => rowsOf(l).map((r) => r.id);
const gap = (id: string, ms = 2000) => ({ id, kind: 'gap' as const, ms });
const title = (id: string, text: string, ms = 3000) => ({ id, kind: 'title' as const, ms, text });

/** Bites s1, s2, s3 with a 2 s gap after s1 and a 3 s title card after s2. */
function withSpacers(): SelectList {
  let l = listOf([0, 2], [2, 5], [5, 9]);
  l = editList(l, { kind: 'addSpacer', spacer: gap('g1'), after: 's1' });
  l = editList(l, { kind: 'addSpacer', spacer: title('t1', '  Part   two '), after: 's2' });
  return l;
}

describe('gap and title-card rows', () => {
  it('are added after a row or at the end, moved, retitled, lengthened, deleted and put back like bites', () => {
    let l = withSpacers();
    expect(ids(l)).toEqual(['s1', 'g1', 's2', 't1', 's3']);
    expect(l.spacers).toEqual([
      { id: 'g1', kind: 'gap', ms: 2000, after: 's1' },
      { id: 't1', kind: 'title', ms: 3000, text: 'Part two', after: 's2' },
    ]);
    l = editList(l, { kind: 'addSpacer', spacer: gap('g2', 500) });
    expect(ids(editList(l, { kind: 'addSpacer', spacer: gap('g0'), after: null }))[0]).toBe('g0');
    expect(ids(l)).toEqual(['s1', 'g1', 's2', 't1', 's3', 'g2']);
    // Positions count every row: the title card to the start, a bite past it.
    l = editList(l, { kind: 'move', id: 't1', index: 0 });
    expect(ids(l)).toEqual(['t1', 's1', 'g1', 's2', 's3', 'g2']);
    expect(l.spacers!.find((s) => s.id === 't1')!.after).toBeNull();
    l = editList(l, { kind: 'move', id: 's3', index: 1 });
    expect(ids(l)).toEqual(['t1', 's3', 's1', 'g1', 's2', 'g2']);
    l = editList(l, { kind: 'relabel', id: 't1', label: 'Part one' });
    l = editList(l, { kind: 'respace', id: 'g1', ms: 1500 });
    expect(rowsOf(l).slice(0, 4)).toMatchObject([{ text: 'Part one' }, { id: 's3' }, { id: 's1' }, { ms: 1500 }]);
    // A deleted bite's spacers stay where they were, after the row before it.
    const before = l;
    l = editList(l, { kind: 'remove', id: 's1' });
    expect(ids(l)).toEqual(['t1', 's3', 'g1', 's2', 'g2']);
    expect(l.spacers!.find((s) => s.id === 'g1')!.after).toBe('s3');
    l = editList(l, { kind: 'restore', select: before.selects.find((s) => s.id === 's1')!, index: 2 });
    expect(ids(l)).toEqual(ids(before));
    const gone = rowsOf(l).find((r) => r.id === 'g1')!;
    l = editList(l, { kind: 'remove', id: 'g1' });
    expect(ids(l)).toEqual(['t1', 's3', 's1', 's2', 'g2']);
    l = editList(l, { kind: 'restore', select: gone, index: 3 });
    expect(ids(l)).toEqual(ids(before));
    // Without spacers the list holds no `spacers` field: the file it always was.
    for (const id of ['t1', 'g1', 'g2']) l = editList(l, { kind: 'remove', id });
    expect('spacers' in l).toBe(false);
  });

  it('refuses what a gap or a title card cannot be, saying what to do', () => {
    const l = withSpacers();
    const refused = (e: Parameters<typeof editList>[1]): string => {
      try {
        editList(l, e);
      } catch (x) {
        expect(x).toBeInstanceOf(SelectError);
        return (x as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refused({ kind: 'addSpacer', spacer: title('t2', '  ') })).toMatch(/needs its text/);
    expect(refused({ kind: 'addSpacer', spacer: gap('g2', 0) })).toMatch(/from 0\.04 to 600 seconds/);
    expect(refused({ kind: 'respace', id: 's1', ms: 1000 })).toMatch(/trim a bite instead/);
    expect(refused({ kind: 'relabel', id: 'g1', label: 'x' })).toMatch(/make it a title card/);
    expect(refused({ kind: 'recolour', id: 'g1', colour: 'Red' })).toMatch(/gap has no colour/);
    expect(refused({ kind: 'trim', id: 't1', end: 'in', words: 1 })).toMatch(/title card has no words/);
    expect(refused({ kind: 'addSpacer', spacer: gap('g2'), after: 'nope' })).toMatch(/no longer in "Cut"/);
  });

  it('colour and note a bite', () => {
    let l = listOf([0, 2]);
    l = editList(l, { kind: 'recolour', id: 's1', colour: 'Purple' });
    l = editList(l, { kind: 'renote', id: 's1', note: '  use the wide  ' });
    expect(l.selects[0]).toMatchObject({ colour: 'Purple', note: 'use the wide' });
  });

  it('loads a list written before spacers unchanged, and one with them as written', () => {
    const old = JSON.parse(JSON.stringify(listOf([0, 2], [2, 5]))) as unknown;
    expect(SELECT_LIST.parse(old)).toEqual(old);
    const now = JSON.parse(JSON.stringify(withSpacers())) as unknown;
    expect(SELECT_LIST.parse(now)).toEqual(now);
    expect(SELECT_LIST.safeParse({ ...(now as object), spacers: [{ ...title('x', ''), after: null }] }).success).toBe(
      false,
    );
  });
});

describe('a string-out with a gap and a title card', () => {
  const so = stringOut(withSpacers(), clips);
  const [b1, b2, b3] = so.bites as [(typeof so.bites)[0], (typeof so.bites)[0], (typeof so.bites)[0]];

  it('places them between the bites: every record time after them counts them', () => {
    // "we start": 1000–1900 ms: frames 25 to 48 (47.5 up), 23 frames.
    expect([b1.recordIn, b1.recordOut]).toEqual([0, 23]);
    expect(so.spacers).toEqual([
      { id: 'g1', kind: 'gap', recordIn: 23, recordOut: 73 },
      { id: 't1', kind: 'title', text: 'Part two', recordIn: b2.recordOut, recordOut: b2.recordOut + 75 },
    ]);
    expect(b2.recordIn).toBe(73);
    expect(b3.recordIn).toBe(b2.recordOut + 75);
    expect(timelineLength(so)).toBe(b3.recordOut);
    // A gap at the end counts in the total.
    const tail = stringOut(editList(withSpacers(), { kind: 'addSpacer', spacer: gap('g9', 1000) }), clips);
    expect(timelineLength(tail)).toBe(b3.recordOut + 25);
  });

  it('OTIO: a Gap on every track; the title card a Gap named after its text with a marker', () => {
    const otio = JSON.parse(renderOtio(so)) as {
      tracks: { children: Array<{ kind: string; children: Array<Record<string, unknown>> }> };
    };
    for (const track of otio.tracks.children) {
      const kinds = track.children.map((c) => c.OTIO_SCHEMA);
      expect(kinds).toEqual(['Clip.2', 'Gap.1', 'Clip.2', 'Gap.1', 'Clip.2']);
      expect(track.children[1]).toMatchObject({ name: '', source_range: { duration: { value: 50, rate: 25 } } });
      expect(track.children[3]).toMatchObject({ name: 'TITLE: Part two', metadata: { sluice: { title: 'Part two' } } });
    }
    const v = otio.tracks.children[0]!;
    expect(v.children[3]!.markers).toMatchObject([{ name: 'Part two', comment: 'Title card' }]);
  });

  it('FCPXML: a gap in the spine; the title card a named gap with its text as note and marker', () => {
    const xml = renderStringOutFcpxml(so);
    expect(xml).toContain('<gap name="Gap" offset="90023/25s" start="0s" duration="50/25s"/>');
    expect(xml).toMatch(
      /<gap name="TITLE: Part two" offset="\d+\/25s" start="0s" duration="75\/25s">\s*<note>Title card: Part two<\/note>\s*<marker start="0s" duration="1\/25s" value="Part two" note="Title card"\/>/,
    );
    expect(xml).toMatch(/<sequence [^>]*duration="\d+\/25s"/);
    expect(xml).toContain(`duration="${timelineLength(so)}/25s"`);
  });

  it('xmeml: the tracks leave the time empty (clipitems start later); the title card is a marker', () => {
    const xml = renderStringOutXmeml(so);
    expect([...xml.matchAll(/<start>(\d+)<\/start>/g)].map((m) => Number(m[1]))).toEqual(
      [b1, b2, b3, b1, b2, b3].map((b) => b.recordIn),
    );
    expect(xml).toContain('<name>TITLE: Part two</name>');
    expect(xml).toContain(`<duration>${timelineLength(so)}</duration>`);
  });

  it('EDL: record times move on past them; the title card is a comment on the next event', () => {
    const edl = renderStringOutEdl(so);
    const records = [...edl.matchAll(/^\d{3} .* (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]);
    expect(records).toEqual([
      ['01:00:00:00', '01:00:00:23'],
      ['01:00:02:23', expect.any(String)],
      [expect.any(String), expect.any(String)],
    ]);
    expect(records[2]![0]).toBe(`01:00:0${Math.floor(b3.recordIn / 25)}:${String(b3.recordIn % 25).padStart(2, '0')}`);
    expect(edl).toMatch(/^003 .*\n(\* .*\n)*\* TITLE CARD: Part two\n/m);
  });

  it('script: a gap line and a title line with their lengths, in order', () => {
    const txt = renderScriptTxt(scriptOf(so));
    const lines = txt.split('\n');
    const at = (s: string): number => lines.findIndex((l) => l.startsWith(s));
    expect(lines).toContain('— gap 2 s —');
    expect(lines).toContain('TITLE: Part two (3 s)');
    expect(at('1. ')).toBeLessThan(at('— gap'));
    expect(at('— gap')).toBeLessThan(at('2. '));
    expect(at('2. ')).toBeLessThan(at('TITLE:'));
    expect(at('TITLE:')).toBeLessThan(at('3. '));
    expect(lines[at('— gap') + 1]).toBe('   at 01:00:00:23, running 00:00:02:23');
  });
});
