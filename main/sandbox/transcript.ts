// Simulated speech recognition: deterministic, visibly simulated (the first sentence is
// SANDBOX.simulatedNotice), yet shaped like the real thing: words with a leading space and
// punctuation, millisecond timings spread over the media's real duration with pauses at sentence
// ends, confidences, languages, and speaker turns when the template diarizes.
import { createHash } from 'node:crypto';
import { SANDBOX } from '../service/policy.js';
import type { Utterance, Word } from '../service/types.js';

export interface Sentence {
  text: string;
  /** -1..1, the sentence's simulated sentiment score. */
  score: number;
  start: number;
  end: number;
  speaker: string | null;
  channel: string | null;
  words: Word[];
}

export interface Transcript {
  text: string;
  words: Word[];
  sentences: Sentence[];
  utterances: Utterance[] | undefined;
}

export interface TranscriptInput {
  seed: string;
  durationMs: number;
  speechless?: boolean;
  /** Languages the words are tagged with, cycled per sentence (code switching); default ['en']. */
  languages?: readonly string[];
  /** Present when the template diarizes. */
  speakers?: { exact?: number | null; min?: number | null; max?: number | null };
  /** Per-channel transcription (splitStereo on a 2-channel file). */
  channels?: number;
  vocabulary?: 'en' | 'ro';
  /** What the media says (a test fixture's speech tag, media-probe.ts): heard once, in place of the pool. */
  speech?: string;
}

/**
 * How plain recognition, which knows no glossary, spells a word it hears: a coined name in one
 * word of two capitals comes out as the two words it sounds like ("MoveFlow" → "move flow"), and
 * letters outside ASCII lose their accents ("Jürgen" → "Jurgen"). Other words as spoken.
 */
export function plainSpelling(text: string): string {
  return text
    .split(' ')
    .map((word) => {
      const bare = word.normalize('NFD').replace(/\p{M}/gu, '');
      return /\p{Ll}\p{Lu}/u.test(bare) ? bare.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2').toLowerCase() : bare;
    })
    .join(' ');
}

/** The sentences of a text: each ends at `.`, `!` or `?` (or the text's end). */
const sentencesOf = (text: string): string[] =>
  (text.match(/[^.!?]+[.!?]*/g) ?? []).map((s) => s.replace(/\s+/g, ' ').trim()).filter((s) => s !== '');

const EN: ReadonlyArray<[string, number]> = [
  ['Good morning, thanks for joining the call today.', 0.6],
  ["Let's start with a quick review of last week.", 0.1],
  ['The new release went out on Tuesday without any problems.', 0.7],
  ['We still have a few open questions about the budget.', -0.2],
  ['Could you share the numbers from the second quarter?', 0.0],
  ['Sales grew by about twelve percent compared to last year.', 0.6],
  ['Unfortunately the shipment to the northern warehouse was delayed again.', -0.6],
  ['I think we should talk to the supplier this week.', 0.0],
  ['That sounds like a good plan to me.', 0.5],
  ['Customer feedback on the mobile app has been mostly positive.', 0.7],
  ['A few users reported that the login screen is too slow.', -0.4],
  ['The team is already working on a fix for that.', 0.3],
  ['Do we have a date for the next training session?', 0.0],
  ['It is scheduled for the fifteenth, right after lunch.', 0.1],
  ["I'm worried that we are running out of time on this project.", -0.5],
  ['Let me check the calendar and get back to you.', 0.1],
  ['Overall this was a productive meeting.', 0.6],
  ['Please send me the slides when you have a moment.', 0.2],
  ['The weather has been terrible all week.', -0.5],
  ['Thanks everyone, talk to you on Friday.', 0.6],
];

const RO: ReadonlyArray<[string, number]> = [
  ['Bună ziua și mulțumesc că ați venit astăzi.', 0.6],
  ['Să începem cu o scurtă trecere în revistă a săptămânii trecute.', 0.1],
  ['Noua versiune a fost lansată marți fără probleme.', 0.7],
  ['Mai avem câteva întrebări deschise despre buget.', -0.2],
  ['Livrarea către depozit a fost din nou întârziată.', -0.6],
  ['Cred că ar trebui să vorbim cu furnizorul săptămâna aceasta.', 0.0],
  ['Mi se pare un plan bun.', 0.5],
  ['Mulțumesc tuturor, vorbim vineri.', 0.6],
];

/** mulberry32 over a SHA-256 of the seed: same seed, same transcript (and same answers). */
export function rng(seed: string): () => number {
  let a = createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function speakerCount(s: NonNullable<TranscriptInput['speakers']>, r: () => number): number {
  if (s.exact) return s.exact;
  const min = s.min ?? 1;
  const max = Math.max(min, s.max ?? Math.max(min, 3));
  const lo = Math.max(min, Math.min(2, max));
  return lo + Math.floor(r() * (max - lo + 1));
}

export function generateTranscript(input: TranscriptInput): Transcript {
  if (input.speechless || input.durationMs <= 0) {
    return { text: '', words: [], sentences: [], utterances: input.speakers ? [] : undefined };
  }
  const r = rng(input.seed);
  const pool = input.vocabulary === 'ro' ? RO : EN;
  const langs = input.languages?.length ? input.languages : ['en'];
  // Raw timeline in "natural" time; scaled down at the end if the notice alone is too long.
  const raw: Array<{ text: string; score: number; words: Array<{ w: string; s: number; e: number }> }> = [];
  let t = 150 + Math.floor(r() * 450);
  const wordsOf = (sentence: string): Array<{ w: string; s: number; e: number }> =>
    sentence.split(' ').map((w) => {
      const len = 110 + w.replace(/[^\p{L}\p{N}]/gu, '').length * (45 + Math.floor(r() * 20));
      const item = { w: ` ${w}`, s: t, e: t + len };
      t += len + 20 + Math.floor(r() * 90);
      return item;
    });
  raw.push({ text: SANDBOX.simulatedNotice, score: 0, words: wordsOf(SANDBOX.simulatedNotice) });
  const heard = input.speech === undefined ? [] : sentencesOf(input.speech).map((x) => plainSpelling(x));
  for (const text of heard) {
    t += 350 + Math.floor(r() * 900);
    raw.push({ text, score: 0, words: wordsOf(text) });
  }
  while (heard.length === 0) {
    t += 350 + Math.floor(r() * 900); // pause at a sentence end
    const [text, score] = pool[Math.floor(r() * pool.length)] ?? ['', 0];
    const save = t;
    const words = wordsOf(text);
    if ((words[words.length - 1]?.e ?? 0) > input.durationMs - 100) {
      t = save;
      break;
    }
    raw.push({ text, score, words });
  }
  const lastEnd = raw[raw.length - 1]?.words.at(-1)?.e ?? 1;
  const scale = Math.min(1, Math.max(0, input.durationMs - 50) / lastEnd);

  const nSpeakers = input.speakers ? Math.max(1, speakerCount(input.speakers, r)) : 0;
  let speaker = 0;
  const sentences: Sentence[] = raw.map((s, i) => {
    if (nSpeakers > 0 && i > 0) {
      // Every speaker talks early (labels in order of first appearance), then turns are random.
      if (i < nSpeakers) speaker = i;
      else if (r() < 0.6) speaker = (speaker + 1 + Math.floor(r() * Math.max(1, nSpeakers - 1))) % nSpeakers;
    }
    const language = langs[i % langs.length] ?? 'en';
    const channel = input.channels && input.channels > 1 ? String(i % input.channels) : null;
    const speakerId = nSpeakers > 0 ? `SPEAKER_${speaker}` : null;
    const words: Word[] = s.words.map((w) => ({
      word: w.w,
      start: Math.round(w.s * scale),
      end: Math.max(Math.round(w.s * scale) + 1, Math.round(w.e * scale)),
      confidence: Math.round((0.82 + r() * 0.17) * 1000) / 1000,
      language,
      ...(speakerId ? { speakers: [speakerId], speakersOverlap: false } : {}),
      ...(channel !== null ? { channel } : {}),
    }));
    return {
      text: ` ${s.text}`,
      score: s.score,
      start: words[0]?.start ?? 0,
      end: words[words.length - 1]?.end ?? 0,
      speaker: speakerId,
      channel,
      words,
    };
  });
  const words = sentences.flatMap((s) => s.words);
  return {
    text: words.map((w) => w.word).join(''),
    words,
    sentences,
    utterances: input.speakers ? utterancesOf(sentences) : undefined,
  };
}

/** Consecutive sentences of one speaker form one turn. */
function utterancesOf(sentences: readonly Sentence[]): Utterance[] {
  const out: Utterance[] = [];
  for (const s of sentences) {
    const last = out[out.length - 1];
    if (last && last.speakerIds[0] === s.speaker && (last.channel ?? null) === s.channel) {
      last.end = s.end;
      last.text += s.text;
      last.words.push(...s.words);
      continue;
    }
    out.push({
      speakerIds: [s.speaker ?? 'SPEAKER_0'],
      overlap: false,
      ...(s.channel !== null ? { channel: s.channel } : {}),
      start: s.start,
      end: s.end,
      text: s.text,
      words: [...s.words],
    });
  }
  return out;
}
