// The promise, end to end through the built CLI and the sandbox: five clips made by ffmpeg
// (23.976 and 25 fps MOVs and a 29.97 drop-frame MP4 with timecode tracks, a 25 fps MOV an
// afternoon in, a BWF WAV stamped 10:00:00), processed; twelve bites picked from them by quote and
// by source timecode into one list; the list exported to all five formats. Each file is read back
// with OpenTimelineIO's own readers (../shared/tools/otio) and the FCPXML with xmllint against
// Apple's DTD: the same bites in the same order, each source in and out within one frame of the
// words' times (from the JSON beside each file) at the clip's own timecode, the record times back
// to back from 01:00:00:00. Then a correction inside a bite, a speaker's new name and a re-export
// leave every bite on its words.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import Timecode from 'smpte-timecode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Runtime } from '../../main/runtime/runtime.js';
import { makeMediaDir } from '../helpers/media.js';
import { hasOtio, runOtio } from '../helpers/otio.js';
import { buildCli, runCli, startCli } from './run-cli.js';

const DTD = fileURLToPath(new URL('../fixtures/fcpxml/FCPXMLv1_8.dtd', import.meta.url));
const DIARIZATION = '669fee048452492b62cfad39';
const ENV = { SLUICE_SANDBOX_SPEED_FACTOR: '0.01' };
const LIST = 'Rough cut Día 1';

interface Rate {
  num: number;
  den: number;
  dropFrame: boolean;
}
const r23: Rate = { num: 24000, den: 1001, dropFrame: false };
const pal: Rate = { num: 25, den: 1, dropFrame: false };
const df30: Rate = { num: 30000, den: 1001, dropFrame: true };
const fps = (r: Rate): number => r.num / r.den;
const oracle = (tc: string, r: Rate): number => new Timecode(tc, [r.num, r.den], r.dropFrame).frameCount;
const label = (frames: number, r: Rate): string => new Timecode(frames, [r.num, r.den], r.dropFrame).toString();

interface Clip {
  file: string;
  /** The rate its timecode counts in (the BWF: the job's default, 25, as the review shows it). */
  rate: Rate;
  /** Its own timecode's first frame, and that moment in seconds. */
  startFrame: number;
  startSec: number;
  video: boolean;
}
const clipOf = (file: string, rate: Rate, tc: string, video = true): Clip => {
  const startFrame = oracle(tc, rate);
  return { file, rate, startFrame, startSec: (startFrame * rate.den) / rate.num, video };
};
const CLIPS: Clip[] = [
  clipOf('Camera A Día.mov', r23, '01:00:00:00'),
  clipOf('cam b.mov', pal, '10:00:00:00'),
  clipOf('cam c.mp4', df30, '00:59:50;00'),
  clipOf('cam d.mov', pal, '14:22:10:05'),
  clipOf('recorder.wav', pal, '10:00:00:00', false),
];
const [A, B, C, D, E] = CLIPS as [Clip, Clip, Clip, Clip, Clip];

/** Twelve bites in cut order: a clip and its words [first, end); by quote, or by timecode. */
const BITES: Array<{ clip: Clip; words: [number, number]; by: 'quote' | 'tc'; label?: string; note?: string }> = [
  { clip: A, words: [0, 4], by: 'quote' },
  { clip: C, words: [5, 9], by: 'tc', note: 'strong open' },
  { clip: E, words: [1, 3], by: 'tc' },
  { clip: B, words: [10, 14], by: 'quote', label: 'The plan' },
  { clip: A, words: [6, 10], by: 'tc' },
  { clip: D, words: [2, 5], by: 'quote' },
  { clip: C, words: [12, 17], by: 'quote' },
  { clip: B, words: [3, 6], by: 'tc' },
  { clip: E, words: [9, 13], by: 'quote' },
  { clip: A, words: [14, 18], by: 'quote' },
  { clip: D, words: [11, 15], by: 'tc' },
  { clip: B, words: [16, 18], by: 'quote' },
];

interface Word {
  word: string;
  start: number;
  end: number;
}

let dir: string;
let media: string;
let state: string;
const wordsOf = new Map<Clip, Word[]>();

const ff = (...args: string[]): void =>
  void execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
const sluice = (args: string[]) => runCli([...args, '--state-dir', state], ENV, undefined, 60_000);
const fileOf = (c: Clip): string => path.join(media, c.file);

beforeAll(() => {
  buildCli();
}, 120_000);
beforeAll(async () => {
  dir = await makeMediaDir('sluice-selects-');
  media = path.join(dir, 'media');
  state = path.join(dir, 'state');
  mkdirSync(media);
  const video = (rate: string, tc: string, file: string): void =>
    ff(
      ...['-f', 'lavfi', '-i', `testsrc=size=160x120:rate=${rate}:duration=12`],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=12'],
      ...['-timecode', tc, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
      ...['-c:a', 'aac', '-shortest', path.join(media, file)],
    );
  video('24000/1001', '01:00:00:00', A.file);
  video('25', '10:00:00:00', B.file);
  video('30000/1001', '00:59:50;00', C.file);
  video('25', '14:22:10:05', D.file);
  ff(
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=12', '-write_bext', '1'],
    ...['-metadata', `time_reference=${10 * 3600 * 48_000}`, path.join(media, E.file)],
  );
  const r = await sluice([
    ...['process', ...CLIPS.map(fileOf), '--sandbox', '--formats', 'json,srt'],
    ...['--template', DIARIZATION, '--param', 'speakersNumber=2'],
  ]);
  expect(r.code, r.out).toBe(0);
  for (const c of CLIPS) {
    const json = JSON.parse(readFileSync(fileOf(c).replace(/\.\w+$/, '.json'), 'utf8')) as {
      transcription: { words: Word[] };
    };
    wordsOf.set(c, json.transcription.words);
  }
}, 180_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const text = (ws: Word[]): string => ws.map((w) => w.word.trim()).join(' ');
const fold = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N} ]/gu, '');

/** The words a bite's quote finds: its first run in the clip (an earlier repeat would win). */
function quotedWords(c: Clip, words: [number, number]): [number, number] {
  const all = wordsOf.get(c)!;
  const want = fold(text(all.slice(...words)));
  const n = words[1] - words[0];
  for (let i = 0; i + n <= all.length; i++) if (fold(text(all.slice(i, i + n))) === want) return [i, i + n];
  throw new Error('unreachable');
}

/** Source timecodes inside the first and last words, so that exactly those words are touched. */
function timecodesFor(c: Clip, [first, end]: [number, number]): [string, string] {
  const ws = wordsOf.get(c)!;
  const inside = (ms: number, up: boolean): number => {
    const f = (ms * c.rate.num) / (c.rate.den * 1000);
    return c.startFrame + (up ? Math.ceil(f) : Math.floor(f));
  };
  return [label(inside(ws[first]!.start, true), c.rate), label(inside(ws[end - 1]!.end, false), c.rate)];
}

interface Listed {
  name: string;
  selects: Array<{ label: string; file: string; fromMs: number; toMs: number; text: string; speaker?: string }>;
}

const listed = async (): Promise<Listed> => {
  const r = await sluice(['selects', 'list', LIST, '--json']);
  expect(r.code, r.out).toBe(0);
  return JSON.parse(r.stdout) as Listed;
};

/** Each bite's expected words: clip, the words' time span in seconds at the clip's own timecode. */
const expected = (): Array<{ clip: Clip; inSec: number; outSec: number; words: string }> =>
  BITES.map((b) => {
    const range = b.by === 'quote' ? quotedWords(b.clip, b.words) : b.words;
    const ws = wordsOf.get(b.clip)!.slice(...range);
    return {
      clip: b.clip,
      inSec: b.clip.startSec + ws[0]!.start / 1000,
      outSec: b.clip.startSec + ws[ws.length - 1]!.end / 1000,
      words: text(ws),
    };
  });

const READER = `
import json, sys
import opentimelineio as otio
from otio_cmx3600_adapter import cmx_3600
from otio_fcp_adapter import fcp_xml
from otio_fcpx_xml_adapter import fcpx_xml
base = sys.argv[1]
s = lambda t: t.to_seconds()
def clips(track):
    out = []
    for c in track:
        if isinstance(c, otio.schema.Clip):
            r = c.range_in_parent()
            out.append({'name': c.name, 'in': s(c.source_range.start_time), 'out': s(c.source_range.end_time_exclusive()),
                        'recIn': s(r.start_time), 'recOut': s(r.end_time_exclusive()),
                        'url': getattr(c.media_reference, 'target_url', None),
                        'markers': [m.name for m in c.markers]})
        else:
            out.append({'gap': s(c.source_range.duration)})
    return out
t = otio.adapters.read_from_file(base + '.otio')
p = fcp_xml.read_from_string(open(base + '.premiere.xml').read())
e = cmx_3600.read_from_string(open(base + '.edl').read(), rate=24000/1001)
x = fcpx_xml.read_from_string(open(base + '.fcpxml').read())
xt = x if isinstance(x, otio.schema.Timeline) else list(x.find_children(descended_from_type=otio.schema.Timeline))[0]
print(json.dumps({
  'otio': {'start': s(t.global_start_time), 'tracks': [{'kind': k.kind, 'items': clips(k)} for k in t.tracks]},
  'xmeml': {'start': s(p.global_start_time), 'tracks': [{'kind': k.kind, 'items': clips(k)} for k in p.tracks]},
  'edl': {'tracks': [{'name': k.name, 'items': clips(k)} for k in e.tracks]},
  'fcpx': sorted(c.name for c in xt.find_clips()),
}))
`;

interface Item {
  name?: string;
  in: number;
  out: number;
  recIn: number;
  recOut: number;
  url?: string;
  markers?: string[];
  gap?: number;
}
interface Reading {
  otio: { start: number; tracks: Array<{ kind: string; items: Item[] }> };
  xmeml: { start: number; tracks: Array<{ kind: string; items: Item[] }> };
  edl: { tracks: Array<{ name: string; items: Item[] }> };
  fcpx: string[];
}

const TIMELINE = r23;
const frameSec = (r: Rate): number => 1 / fps(r);
/** One frame: the longer of the clip's and the timeline's, and a millisecond of float reading. */
const oneFrame = (c: Clip): number => Math.max(frameSec(c.rate), frameSec(TIMELINE)) + 0.001;

/** Bites read back: same order, each within a frame of its words, back to back from zero. */
function holds(what: string, items: Item[], names: string[], want: ReturnType<typeof expected>): void {
  expect(
    items.map((i) => i.name),
    what,
  ).toEqual(names);
  items.forEach((it, i) => {
    const w = want[i]!;
    const at = `${what} bite ${i + 1} (${w.clip.file}: ${it.in}–${it.out} for ${w.inSec}–${w.outSec})`;
    // The clip's own timecode: a camera's 01:00:00:00 is 3603.6 s of real time at 23.976.
    expect(Math.abs(it.in - w.inSec), at).toBeLessThanOrEqual(oneFrame(w.clip));
    expect(Math.abs(it.out - w.outSec), at).toBeLessThanOrEqual(oneFrame(w.clip));
    expect(it.in, `${at}: no word clipped at the in`).toBeLessThanOrEqual(w.inSec + 0.001);
    expect(it.recIn, at).toBeCloseTo(i === 0 ? 0 : items[i - 1]!.recOut, 6);
  });
}

describe('sluice selects: a string-out of twelve bites from five clips at three rates', () => {
  it('adds twelve bites by quote and by source timecode, in order, and lists them on their words', async () => {
    for (const b of BITES) {
      const where =
        b.by === 'quote'
          ? ['--quote', text(wordsOf.get(b.clip)!.slice(...b.words))]
          : (([from, to]) => ['--from', from, '--to', to])(timecodesFor(b.clip, b.words));
      const r = await sluice([
        ...['selects', 'add', LIST, fileOf(b.clip), ...where],
        ...(b.label ? ['--label', b.label] : []),
        ...(b.note ? ['--note', b.note] : []),
      ]);
      expect(r.code, r.out).toBe(0);
    }
    const list = await listed();
    const want = expected();
    expect(list.selects.map((s) => [path.basename(s.file), s.text])).toEqual(want.map((w) => [w.clip.file, w.words]));
    // The times kept are the words' own, as the service gave them.
    list.selects.forEach((s, i) => {
      expect(want[i]!.clip.startSec + s.fromMs / 1000).toBeCloseTo(want[i]!.inSec, 6);
      expect(want[i]!.clip.startSec + s.toMs / 1000).toBeCloseTo(want[i]!.outSec, 6);
    });
    expect(list.selects[3]!.label).toBe('The plan');
    // A different spelling of the list's name is the same list; an unknown one is refused.
    expect((await sluice(['selects', 'list', 'ROUGH CUT DIA 1'])).code).toBe(0);
    const none = await sluice(['selects', 'list', 'Nothing here']);
    expect([none.code, none.stderr]).toEqual([1, expect.stringMatching(/no list named "Nothing here"/)]);
  }, 120_000);

  it.skipIf(!hasOtio)(
    'exports all five formats, and every reader gives the same bites in order, within a frame, back to back',
    async () => {
      const out = path.join(dir, 'out');
      const r = await sluice(['selects', 'export', LIST, '--formats', 'otio,fcpxml,premiere,edl,script', '--out', out]);
      expect(r.code, r.out).toBe(0);
      expect(r.stdout).toMatch(/The timeline runs at 23\.976 \(the first clip’s with a picture\) from 01:00:00:00/);
      const base = path.join(out, LIST);
      for (const ending of ['.otio', '.fcpxml', '.premiere.xml', '.edl', '.script.docx', '.script.txt']) {
        expect(existsSync(base + ending), base + ending).toBe(true);
      }
      const want = expected();
      const labels = (await listed()).selects.map((s) => s.label);
      const read = runOtio<Reading>(READER, [base], dir);
      const hour = oracle('01:00:00:00', TIMELINE) / fps(TIMELINE);

      // OpenTimelineIO: a video track (gaps where the WAV's bites are) and an audio track of all twelve.
      expect(read.otio.start).toBeCloseTo(hour, 6);
      const [v, a] = read.otio.tracks;
      expect([v!.kind, a!.kind]).toEqual(['Video', 'Audio']);
      holds('otio', a!.items, labels, want);
      expect(v!.items.map((i) => (i.gap === undefined ? i.name : 'gap'))).toEqual(
        BITES.map((b, i) => (b.clip.video ? labels[i] : 'gap')),
      );
      expect(a!.items.map((i) => fileURLToPath(i.url!))).toEqual(BITES.map((b) => fileOf(b.clip)));
      expect(v!.items[0]!.markers).toEqual([labels[0]]);

      // Premiere's xmeml: the sequence at 01:00:00:00; the audio track holds every bite.
      expect(read.xmeml.start).toBeCloseTo(hour, 6);
      const pa = read.xmeml.tracks.find((t) => t.kind === 'Audio')!;
      holds('xmeml', pa.items, labels, want);

      // The EDL (read at its rate): clip names from `* FROM CLIP NAME:` (in ASCII, as old readers
      // need), every event on track A1.
      const ea = read.edl.tracks.find((t) => t.name === 'A1')!;
      holds(
        'edl',
        ea.items,
        BITES.map((b) => b.clip.file.normalize('NFKD').replace(/\p{M}+/gu, '')),
        want,
      );
      const edl = readFileSync(`${base}.edl`, 'utf8');
      expect(edl.split('\n').slice(0, 2)).toEqual([`TITLE: Rough cut Dia 1`, 'FCM: NON-DROP FRAME']);
      const reels = [...edl.matchAll(/^\d{3} {2}(\S+) /gm)].map((m) => m[1]!);
      expect(reels).toHaveLength(12);
      expect(reels.every((n) => n.length <= 8)).toBe(true);
      expect(new Set(reels).size).toBe(5);
      expect(edl).toContain(`* SOURCE FILE: ${fileOf(C)}`);

      // Final Cut: valid against the DTD of the version it declares; its reader finds all twelve.
      execFileSync('xmllint', ['--noout', '--dtdvalid', DTD, `${base}.fcpxml`], { stdio: 'pipe' });
      expect(read.fcpx).toEqual([...labels].sort());
      // Its times read exactly from the file (OpenTimelineIO's FCPXML reader counts 23.976 as 23
      // frames per second and orders a spine of mixed rates by those counts): each asset-clip's
      // start on its clip's frames, its offset on the timeline's, back to back from tcStart.
      const xml = new XMLParser({
        ignoreAttributes: false,
        attributeNamePrefix: '',
        isArray: (n) => n === 'asset-clip',
      });
      const fcp = (
        xml.parse(readFileSync(`${base}.fcpxml`, 'utf8')) as {
          fcpxml: {
            library: {
              event: {
                project: { sequence: { tcStart: string; spine: { 'asset-clip': Array<Record<string, string>> } } };
              };
            };
          };
        }
      ).fcpxml;
      const seq = fcp.library.event.project.sequence;
      const sec = (t: string): number => {
        const [n, d] = t.replace(/s$/, '').split('/');
        return Number(n) / Number(d ?? 1);
      };
      const spine = seq.spine['asset-clip'].map((c) => ({
        name: c.name!,
        in: sec(c.start!),
        out: sec(c.start!) + sec(c.duration!),
        recIn: sec(c.offset!) - sec(seq.tcStart),
        recOut: sec(c.offset!) - sec(seq.tcStart) + sec(c.duration!),
      }));
      holds('fcpxml', spine, labels, want);

      // The script: every bite in order with its clip and words, the running time.
      const txt = readFileSync(`${base}.script.txt`, 'utf8');
      expect(txt).toContain('12 bites from 5 clips');
      let at = 0;
      for (const w of want) {
        at = txt.indexOf(w.words, at);
        expect(at, w.words).toBeGreaterThan(0);
      }
      const docx = execFileSync('unzip', ['-p', `${base}.script.docx`, 'word/document.xml']).toString();
      expect(docx).toContain('strong open');
    },
    120_000,
  );

  it('keeps every bite on its words through a correction inside one, a speaker’s new name and a re-export', async () => {
    const before = await listed();
    const rt = await Runtime.open({ stateDir: state, connection: { sandbox: true } });
    const jobOf = (c: Clip) => [...rt.queue.everyJob()].find((j) => j.source.path === fileOf(c))!;
    try {
      // Bite 2 holds words 5–8 of clip C: word 6 becomes two words.
      const jc = jobOf(C);
      const open = await rt.transcripts.open(jc);
      await rt.transcripts.edit(jc, open.layer.revision, { kind: 'replace', from: 6, to: 7, text: 'brand new' });
      const ja = jobOf(A);
      const openA = await rt.transcripts.open(ja);
      const speaker = openA.current.words[0]!.speaker!;
      await rt.transcripts.edit(ja, openA.layer.revision, { kind: 'renameSpeaker', speaker, name: 'Ana Pérez' });
    } finally {
      await rt.close();
    }
    expect((await sluice(['rewrite', fileOf(A), fileOf(C)])).code).toBe(0);
    const after = await listed();
    const ws = wordsOf.get(C)!;
    const corrected = [ws[5]!.word.trim(), 'brand new', ...ws.slice(7, 9).map((w) => w.word.trim())].join(' ');
    expect(after.selects.map((s) => s.text)).toEqual(before.selects.map((s, i) => (i === 1 ? corrected : s.text)));
    expect(after.selects.map((s) => [s.fromMs, s.toMs])).toEqual(before.selects.map((s) => [s.fromMs, s.toMs]));
    // Clip A's bites that start on that speaker's words carry the new name.
    const aBites = after.selects.filter((s) => path.basename(s.file) === A.file);
    expect(aBites[0]!.speaker).toBe('Ana Pérez');
    // Exported again: the same twelve, the corrected words in the script.
    const out = path.join(dir, 'again');
    const r = await sluice(['selects', 'export', LIST, '--formats', 'script,edl', '--out', out]);
    expect(r.code, r.out).toBe(0);
    expect(readFileSync(path.join(out, `${LIST}.script.txt`), 'utf8')).toContain(corrected);
  }, 120_000);

  it('names a clip whose media is missing and still exports the rest, with handles (exit 1)', async () => {
    renameSync(fileOf(D), `${fileOf(D)}.gone`);
    try {
      const out = path.join(dir, 'missing');
      const r = await sluice(['selects', 'export', LIST, '--formats', 'edl,otio', '--out', out, '--handles', '12']);
      expect(r.code, r.out).toBe(1);
      expect(r.stderr).toMatch(/left out .*: its media is not where it was \(moved or deleted\) \(.*cam d\.mov\)/);
      const edl = readFileSync(path.join(out, `${LIST}.edl`), 'utf8');
      expect([...edl.matchAll(/^\d{3} /gm)]).toHaveLength(10);
      expect(existsSync(path.join(out, `${LIST}.otio`))).toBe(true);
    } finally {
      renameSync(`${fileOf(D)}.gone`, fileOf(D));
    }
  }, 60_000);
  it('works while `sluice watch` runs, and follows a file renamed under it to its new name', async () => {
    const watched = path.join(dir, 'watched');
    const watchState = path.join(dir, 'watch-state');
    mkdirSync(watched);
    const take = path.join(watched, 'take 1.mp4');
    copyFileSync(fileOf(C), take);
    const watch = startCli(['watch', watched, '--sandbox', '--state-dir', watchState, '--formats', 'json'], ENV);
    const inWatch = (args: string[]) => runCli([...args, '--state-dir', watchState], ENV, undefined, 60_000);
    try {
      await watch.waitFor(/completed .*take 1\.mp4/, 60_000);
      const added = await inWatch(['selects', 'add', 'Takes', take, '--quote', text(wordsOf.get(C)!.slice(2, 5))]);
      expect(added.code, added.out).toBe(0);
      const renamed = path.join(watched, 'take 1 (best).mp4');
      renameSync(take, renamed);
      await watch.waitFor(/already processed .*take 1 \(best\)\.mp4/, 30_000);
      const out = path.join(dir, 'takes');
      const r = await inWatch(['selects', 'export', 'Takes', '--formats', 'edl', '--out', out]);
      expect(r.code, r.out).toBe(0);
      expect(readFileSync(path.join(out, 'Takes.edl'), 'utf8')).toContain(`* SOURCE FILE: ${renamed}`);
    } finally {
      const end = await watch.stop();
      expect(end.code, end.out).toBe(0);
    }
  }, 120_000);
});
