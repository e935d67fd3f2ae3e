import { describe, expect, it } from 'vitest';
import type { MediaFacts } from '../../../main/engine/media-facts.js';
import {
  addSelect,
  emptyList,
  findQuote,
  listNameProblem,
  readSelect,
  sameListName,
  SelectError,
  wordsTouching,
  type SelectList,
} from '../../../main/engine/selects/selects.js';
import { clipLabels, sourceLabelFrames, stringOut, type ClipSource } from '../../../main/engine/selects/string-out.js';
import { reelNames, renderStringOutEdl } from '../../../main/engine/selects/edl.js';
import { renderOtio } from '../../../main/engine/selects/otio.js';
import { renderScriptTxt, scriptOf } from '../../../main/engine/selects/script.js';
import { applyEdit } from '../../../main/engine/transcript/transcript-edit.js';
import type { Transcript, TranscriptWord } from '../../../main/engine/transcript/transcript.js';

/** Words of `text`, one every 500 ms (400 ms long), from `atMs`, the speaker changing at each `|`. */
function transcriptOf(text: string, atMs = 1000): Transcript {
  const words: TranscriptWord[] = [];
  let speaker = 0;
  for (const token of text.split(' ')) {
    if (token === '|') {
      speaker++;
      continue;
    }
    const startMs = atMs + words.length * 500;
    words.push({
      text: token,
      startMs,
      endMs: startMs + 400,
      speaker: `S${speaker}`,
      spaceBefore: true,
      corrected: false,
    });
  }
  return { words, speakers: [...new Set(words.map((w) => w.speaker!))], names: {}, text };
}

const r23 = { num: 24000, den: 1001, dropFrame: false };
const df30 = { num: 30000, den: 1001, dropFrame: true };
const video = (rate: typeof r23, frames: number, durationMs = 60_000): MediaFacts => ({
  durationMs,
  hasAudio: true,
  videoRate: rate,
  frameSize: { width: 160, height: 120 },
  start: { kind: 'frames', frames, rate, from: 'tmcd' },
});
const bwf: MediaFacts = {
  durationMs: 60_000,
  hasAudio: true,
  videoRate: null,
  start: { kind: 'samples', samples: 10 * 3600 * 48_000, sampleRate: 48_000, from: 'bext' },
};

const clipOf = (jobId: string, path: string, t: Transcript, facts: MediaFacts | null): ClipSource => ({
  jobId,
  path,
  transcript: t,
  facts,
});

describe('selects', () => {
  const t = transcriptOf('Good morning everyone. | We start with the budget, which is late again.');

  it('finds a quote by its words, case and punctuation aside, and the words a time span touches', () => {
    expect(findQuote(t.words, 'the BUDGET which')).toEqual([6, 9]);
    expect(findQuote(t.words, 'budget late')).toBeNull();
    // 2.1 s to 2.6 s touches "everyone." (2.0–2.4) and "We" (2.5–2.9).
    expect(wordsTouching(t.words, 2100, 2600)).toEqual([2, 4]);
    expect(wordsTouching(t.words, 2420, 2480)).toBeNull();
  });

  it('keeps a select on its words through a correction inside it, a speaker rename and an undo', () => {
    let list = emptyList('Rough cut');
    list = addSelect(list, t, { id: 's1', jobId: 'j1', range: [3, 9] });
    const s = list.selects[0]!;
    expect(readSelect(t, s)).toMatchObject({
      text: 'We start with the budget, which',
      label: 'We start with the budget, which',
      speaker: 'Speaker 2',
    });
    // Two words become three: the new words take the time the old ones took.
    const corrected = applyEdit(t, { kind: 'replace', from: 5, to: 7, text: 'with our whole' });
    const renamed = applyEdit(corrected, { kind: 'renameSpeaker', speaker: 'S1', name: 'Ana' });
    expect(readSelect(renamed, s)).toMatchObject({ text: 'We start with our whole budget, which', speaker: 'Ana' });
    // The words outside it are untouched on both sides.
    expect(readSelect(t, s).words[0]).toBe(t.words[3]);
    expect(readSelect(renamed, s).words.at(-1)!.text).toBe('which');
  });

  it('refuses a list name that cannot name a file, and matches names without case or accents', () => {
    expect(listNameProblem('a/b')).toMatch(/cannot name a file/);
    expect(listNameProblem(' ')).toMatch(/needs a name/);
    expect(listNameProblem('Día uno')).toBeNull();
    expect(sameListName('Día Uno', 'dia uno')).toBe(true);
    expect(() => addSelect(emptyList('x'), t, { id: 's', jobId: 'j', range: [4, 99] })).toThrow(SelectError);
  });
});

describe('a string-out', () => {
  const a = transcriptOf('One two three four five six seven eight nine ten');
  const b = transcriptOf('Alpha beta gamma delta epsilon zeta eta theta', 2000);
  const c = transcriptOf('Red orange yellow green blue indigo violet', 500);
  const clips = new Map([
    ['ja', clipOf('ja', '/m/Camera A.mov', a, video(r23, 86_400))],
    ['jb', clipOf('jb', '/m/cam b.mp4', b, video(df30, 107_592))],
    ['jc', clipOf('jc', '/m/recorder.wav', c, bwf)],
  ]);
  let list: SelectList = emptyList('Cut');
  list = addSelect(list, a, { id: '1', jobId: 'ja', range: [1, 4] });
  list = addSelect(list, b, { id: '2', jobId: 'jb', range: [2, 5], note: 'keep' });
  list = addSelect(list, c, { id: '3', jobId: 'jc', range: [0, 2], label: 'Colours' });
  list = addSelect(list, a, { id: '4', jobId: 'ja', range: [8, 10] });
  list = addSelect(list, a, { id: '5', jobId: 'gone', range: [0, 1] });

  it('snaps each bite to its own clip’s frames and lays them back to back on the first clip’s rate', () => {
    const so = stringOut(list, clips);
    expect(so.rate).toEqual(r23);
    expect(so.startFrame).toBe(86_400);
    expect(so.bites.map((x) => x.label)).toEqual(['two three four', 'gamma delta epsilon', 'Colours', 'nine ten']);
    const [one, two, three] = so.bites;
    // "two" starts at 1500 ms: frame 35 at 23.976 (35.96 → down); "four" ends at 2900 ms: frame 70 (69.5 → up).
    expect([one!.wordsIn, one!.wordsOut]).toEqual([35, 70]);
    // The 29.97 clip keeps its frames: 3000 ms → 89.9 → 89; 4400 ms → 131.87 → 132.
    expect([two!.wordsIn, two!.wordsOut, two!.clip.rate]).toEqual([89, 132, df30]);
    // From frame 89 (2969.7 ms) to the last word's end (4400 ms) is 34.3 frames at 23.976: 35, up.
    expect(two!.recordOut - two!.recordIn).toBe(35);
    // The WAV has no picture rate: it is counted at the timeline's, from 10:00:00 of real time.
    expect(three!.clip.rate).toEqual(r23);
    expect(three!.clip.mediaStartFrame).toBe(863_137);
    so.bites.forEach((x, i) => i > 0 && expect(x.recordIn).toBe(so.bites[i - 1]!.recordOut));
    expect(so.bites[0]!.recordIn).toBe(0);
    expect(so.missing).toEqual([
      { jobId: 'gone', labels: ['One'], reason: 'its job is no longer in this state folder' },
    ]);
    expect(so.notes.join(' ')).toMatch(/cam b\.mp4 \(29\.97 DF\) keeps its own rate/);
  });

  it('adds handles clamped to the media, at the rate asked for and a start of its own', () => {
    const so = stringOut(list, clips, new Map(), { handles: 48, rate: '25', start: '10:00:00:00' });
    expect(so.rate.num).toBe(25);
    expect(so.startFrame).toBe(900_000);
    expect(so.bites[0]!.sourceIn).toBe(0); // 35 − 48, clamped at the media's first frame
    expect(so.bites[0]!.sourceOut).toBe(70 + 48);
    // The last bite ends at 6 s of a 60 s clip: room for the whole handle.
    const end = so.bites[3]!;
    expect(end.sourceOut - end.wordsOut).toBe(48);
    const short = new Map(clips).set('ja', clipOf('ja', '/m/Camera A.mov', a, video(r23, 86_400, 6000)));
    const clamped = stringOut(list, short, new Map(), { handles: 48 }).bites[3]!;
    expect(clamped.sourceOut).toBe(clamped.clip.durationFrames);
  });

  it('writes an EDL event per bite with reel names of eight characters, each its own, and the file comments', () => {
    expect([
      ...reelNames([
        { key: 'a', title: 'Camera A Día' },
        { key: 'b', title: 'Camera A Día 2' },
        { key: 'c', title: '***' },
      ]).values(),
    ]).toEqual(['CAMERA_A', 'CAMERA_2', 'REEL']);
    const edl = renderStringOutEdl(stringOut(list, clips));
    const events = edl.split('\n').filter((l) => /^\d{3} /.test(l));
    expect(events).toHaveLength(4);
    expect(events[0]).toMatch(/^001 {2}CAMERA_A AA\/V {2}C {8}01:00:01:11 01:00:02:22 01:00:00:00 01:00:01:11$/);
    expect(edl).toContain('* FROM CLIP NAME: recorder.wav');
    expect(edl).toContain('* SOURCE FILE: /m/cam b.mp4');
    expect(edl).toMatch(/\* SOURCE TC 29\.97 DF: 00:59:52;29 00:59:54;12 \(relabelled at 23\.976\)/);
  });

  it('writes OpenTimelineIO JSON with a video track (a gap for the audio-only bite) and an audio track', () => {
    const otio = JSON.parse(renderOtio(stringOut(list, clips))) as {
      tracks: { children: Array<{ kind: string; children: Array<{ OTIO_SCHEMA: string; name?: string }> }> };
    };
    const [v, au] = otio.tracks.children;
    expect(v!.children.map((x) => x.OTIO_SCHEMA)).toEqual(['Clip.2', 'Clip.2', 'Gap.1', 'Clip.2']);
    expect(au!.children.map((x) => x.name)).toEqual(['two three four', 'gamma delta epsilon', 'Colours', 'nine ten']);
  });

  it('writes the script with each bite’s clip, speaker, source timecode, running time and words', () => {
    const txt = renderScriptTxt(scriptOf(stringOut(list, clips)));
    expect(txt).toContain('4 bites from 3 clips');
    expect(txt).toContain('1. two three four (Camera A.mov, Speaker 1)  01:00:01:11 – 01:00:02:22');
    expect(txt).toContain('   at 01:00:00:00, running 00:00:01:11');
    expect(txt).toContain('   Note: keep');
    expect(txt).toMatch(/Left out, its job is no longer in this state folder: "One"\./);
  });
});

describe('a string-out of a clip shot through midnight', () => {
  // A 25 fps clip whose timecode starts at 23:59:50:00 and runs 60 s: past midnight 10 s in.
  const r25 = { num: 25, den: 1, dropFrame: false };
  const night = transcriptOf('Before the bells we wait and count the last seconds of the year together', 6000);
  const facts = video(r25, (23 * 3600 + 59 * 60 + 50) * 25);
  const clips = new Map([['jn', clipOf('jn', '/m/NIGHT.MXF', night, facts)]]);
  // "Before the bells" (6.0–7.4 s: before midnight) and "year together" (12.0–13.4 s: after it).
  let list: SelectList = emptyList('New year');
  list = addSelect(list, night, { id: 'n1', jobId: 'jn', range: [0, 3] });
  list = addSelect(list, night, { id: 'n2', jobId: 'jn', range: [12, 14] });

  it('labels its source timecode on one day, hours earlier, as its own editor files do, and says so', () => {
    const so = stringOut(list, clips);
    const [before, after] = so.bites;
    // The formats that count time keep the media's own start (past 24 hours is fine for them).
    expect(before!.clip.mediaStartFrame).toBe((23 * 3600 + 59 * 60 + 50) * 25);
    expect(before!.clip.labelStartFrame).toBe((22 * 3600 + 59 * 60 + 50) * 25);
    // One start per clip, whichever side of midnight a bite is.
    expect(after!.clip).toBe(before!.clip);
    expect(so.notes.join(' ')).toMatch(/NIGHT\.MXF: .*past midnight.*1 hour earlier, at 22:59:50:00/);
    const edl = renderStringOutEdl(so);
    const events = edl.split('\n').filter((l) => /^\d{3} /.test(l));
    expect(events).toHaveLength(2);
    // Every event's source out after its in, on the same day: 6.0 s → 22:59:56:00, 12.0 s → 23:00:02:00.
    const tcs = events.map((l) => l.trim().split(/\s+/).slice(-4));
    expect(tcs[0]!.slice(0, 1)).toEqual(['22:59:56:00']);
    expect(tcs[1]![0]).toBe('23:00:02:00');
    for (const [srcIn, srcOut] of tcs) expect(srcOut! > srcIn!).toBe(true);
    expect(scriptOf(so).rows[1]).toMatchObject({ sourceIn: '23:00:02:00' });
  });

  it('reads a typed source timecode as the files label it, or as the camera’s clock says it after midnight', () => {
    const clip = clipLabels(facts, r25, 60_000);
    const s = (h: number, m: number, sec: number, f = 0): number => ((h * 60 + m) * 60 + sec) * 25 + f;
    // 12.5 s in: 23:00:02:12 as labelled, 00:00:02:12 on the camera's clock; both the same frame.
    expect(sourceLabelFrames(s(23, 0, 2, 12), clip, r25)).toBe(312);
    expect(sourceLabelFrames(s(0, 0, 2, 12), clip, r25)).toBe(312);
    // Before midnight the camera's clock and the label differ by the hour: both read.
    expect(sourceLabelFrames(s(23, 59, 56), clip, r25)).toBe(150);
    expect(sourceLabelFrames(s(22, 59, 56), clip, r25)).toBe(150);
    // Outside the media on every reading.
    expect(sourceLabelFrames(s(12, 0, 0), clip, r25)).toBeNull();
  });
});
