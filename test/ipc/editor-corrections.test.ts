// A correction and a renamed speaker, made in the review over the bridge on a real runtime and
// sandbox, reach every editor format beside the source as they reach the SRT: each file read back
// with its own parser (xmllint against Apple's DTD, fast-xml-parser, imsc.js, the SRT parser).
import { execFileSync } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { fromXML } from 'imsc/src/main/js/doc.js';
import { generateISD } from 'imsc/src/main/js/isd.js';
import { parseSync, type NodeCue } from 'subtitle';
import { describe, expect, it } from 'vitest';
import type { Bridge } from '../../main/ipc/handlers.js';
import { makeToneWav } from '../helpers/media.js';
import { value } from '../helpers/result.js';
import { until, useBridgeEnv } from './helpers.js';

const t = useBridgeEnv({ mediaUrl: true, events: true });
const DTD = fileURLToPath(new URL('../fixtures/fcpxml/FCPXMLv1_8.dtd', import.meta.url));
const FORMATS = ['json', 'srt', 'fcpxml', 'itt', 'ttml', 'edl', 'premiere', 'avid'] as const;
const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (name) => ['caption', 'marker', 'p'].includes(name),
});

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

interface Read {
  /** The first caption's text in each caption format, lines joined by a space. */
  captions: Record<'srt' | 'fcpxml' | 'itt' | 'ttml' | 'avid', string>;
  /** The first marker's name in each marker format. */
  markers: Record<'fcpxml' | 'edl' | 'premiere', string>;
}

async function readBeside(media: string): Promise<Read> {
  const read = (ending: string): Promise<string> => readFile(path.join(media, `talk.${ending}`), 'utf8');
  const oneLine = (s: string): string => s.replace(/\s*\n\s*/g, ' ').trim();

  const srt = parseSync(await read('srt')).find((n): n is NodeCue => n.type === 'cue')!.data.text;

  const fcpFile = path.join(media, 'talk.fcpxml');
  execFileSync('xmllint', ['--noout', '--dtdvalid', DTD, fcpFile], { stdio: 'pipe' });
  type Caption = { text: { 'text-style': { '#text': string } } };
  const clip = (
    xml.parse(await read('fcpxml')) as {
      fcpxml: { library: { event: { project: { sequence: { spine: Record<string, unknown> } } } } };
    }
  ).fcpxml.library.event.project.sequence.spine['asset-clip'] as {
    caption: Caption[];
    marker: Array<{ value: string }>;
  };

  // iTT's first caption in document order (a <br/> between its lines, read as a line feed).
  type Ordered = Array<Record<string, unknown>>;
  const find = (nodes: Ordered, name: string): Ordered | undefined => {
    for (const node of nodes) {
      if (name in node) return node[name] as Ordered;
      for (const [k, v] of Object.entries(node)) {
        const inner = k !== '#text' && k !== ':@' && Array.isArray(v) ? find(v as Ordered, name) : undefined;
        if (inner) return inner;
      }
    }
    return undefined;
  };
  const ordered = new XMLParser({ preserveOrder: true, trimValues: false }).parse(await read('itt')) as Ordered;
  const itt = (find(ordered, 'p') ?? []).map((n) => ('br' in n ? '\n' : String(n['#text'] ?? ''))).join('');

  const problems: string[] = [];
  const handler = { error: (m: string) => !!problems.push(m), fatal: (m: string) => !!problems.push(m) };
  const ttml = fromXML(await read('ttml'), handler)!;
  // The first caption on screen: the first span between two of the document's moments that shows text.
  const events = ttml.getMediaTimeEvents();
  const ttmlText =
    events.map((e, i) => shownText(generateISD(ttml, (e + (events[i + 1] ?? e + 1)) / 2, handler))).find(Boolean) ?? '';
  expect(problems).toEqual([]);

  const avid = /<begin subtitles>\n\n\d\d:\d\d:\d\d[:;]\d\d \d\d:\d\d:\d\d[:;]\d\d\n([\s\S]*?)\n\n/.exec(
    await read('avid.txt'),
  )![1]!;

  const edl = /^ \|C:ResolveColor\w+ \|M:(.+) \|D:1$/m.exec(await read('edl'))![1]!;
  const premiere = (
    xml.parse(await read('premiere.xml')) as { xmeml: { sequence: { marker: Array<{ name: string }> } } }
  ).xmeml.sequence.marker[0]!.name;

  return {
    captions: {
      srt: oneLine(srt),
      fcpxml: oneLine(clip.caption[0]!.text['text-style']['#text']),
      itt: oneLine(itt),
      ttml: oneLine(ttmlText),
      avid: oneLine(avid),
    },
    markers: { fcpxml: clip.marker[0]!.value, edl, premiere: String(premiere) },
  };
}

describe('corrections in the editor formats', () => {
  it('a renamed speaker and a corrected word reach every one of them, as they reach the SRT', async () => {
    await t.env.rt.updateSettings((s) => ({
      ...s,
      defaults: { ...s.defaults, output: { ...s.defaults.output, formats: [...FORMATS] } },
    }));
    const media = path.join(t.env.dir, 'media');
    await mkdir(media, { recursive: true });
    const added = value(await t.bridge.handlers['queue:add']({ paths: [await makeToneWav(media, 'talk.wav', 20)] }));
    const jobId = added[0]?.outcome === 'added' ? added[0].jobId : '';
    await until(() => t.env.rt.queue.job(jobId)?.state === 'completed', 30_000);

    let view = value(await t.bridge.handlers['transcript:open']({ jobId }));
    const n = view.words.length;
    expect(n).toBeGreaterThan(5);
    const change = async (edit: Parameters<Bridge['handlers']['transcript:edit']>[0]['edit']): Promise<number> => {
      const started = Date.now();
      view = value(await t.bridge.handlers['transcript:edit']({ jobId, revision: view.revision, edit }));
      await until(() =>
        t.events.find(
          (e) => e.name === 'transcript:changed' && e.payload.jobId === jobId && e.payload.revision === view.revision,
        ),
      );
      return Date.now() - started;
    };
    // Two speakers, so every caption format labels the first turn; then the first is renamed.
    await change({ kind: 'setSpeaker', from: 0, to: Math.floor(n / 2), speaker: 'A' });
    await change({ kind: 'setSpeaker', from: Math.floor(n / 2), to: n, speaker: 'B' });
    const before = await readBeside(media);
    // Speaker A shows under its default name until it is given one.
    const shown = before.markers.edl;
    expect(shown).not.toBe('Front desk');
    expect(Object.values(before.markers)).toEqual([shown, shown, shown]);
    for (const text of Object.values(before.captions)) expect(text.startsWith(`${shown}: `)).toBe(true);

    const renamed = await change({ kind: 'renameSpeaker', speaker: 'A', name: 'Front desk' });
    const corrected = await change({ kind: 'replace', from: 0, to: 1, text: 'Straßenbahn' });
    expect(Math.max(renamed, corrected)).toBeLessThan(5000); // a second on a quiet machine
    const after = await readBeside(media);
    expect(after.markers).toEqual({ fcpxml: 'Front desk', edl: 'Front desk', premiere: 'Front desk' });
    for (const [format, text] of Object.entries(after.captions)) {
      expect(text, format).toMatch(/^Front desk: Straßenbahn /);
      expect(text, format).toBe(after.captions.srt);
    }
  }, 60_000);
});
