// The corrected transcript written back in the export's own schema (contract §6.3), so every tool
// that reads Sluice's JSON reads the corrections too: the words as corrected, each with its
// speaker's name where the editor gave one (the service's id otherwise), the text and the speaker
// turns rebuilt from them (and the enhanced transcription's words, when it has one). Every other
// section (summary, sentiment, answers, unknown keys) is kept as received. Times in the unit the
// export used. Pure.
import type { ExportResult, Utterance, Word } from '../../service/types.js';
import { joinWords } from '../captions/normalize.js';
import { paragraphsOf, type Transcript } from './transcript.js';

export function correctedExport(base: ExportResult, t: Transcript, timeUnit: 'ms' | 's'): ExportResult {
  const time = (ms: number): number => (timeUnit === 's' ? ms / 1000 : ms);
  const speakerOf = (id: string): string => t.names[id] ?? id;
  const words: Word[] = t.words.map((w) => ({
    word: (w.spaceBefore ? ' ' : '') + w.text,
    start: time(w.startMs),
    end: time(w.endMs),
    // A corrected word keeps the keys the service gave it, so scripts reading the JSON keep working.
    ...(w.confidence === undefined ? {} : { confidence: w.confidence }),
    ...(w.language === undefined ? {} : { language: w.language }),
    ...(w.speaker === undefined ? {} : { speakers: [speakerOf(w.speaker)], speakersOverlap: false }),
  }));
  const text = joinWords(t.words);
  const out: ExportResult = { ...base, transcription: { ...(base.transcription ?? {}), text, words } };
  // The corrected words were read from the enhanced transcription where there is one (respell.ts):
  // it carries them too, or a reader of it (and Sluice reading this file) would lose the corrections.
  if (base.enhancedTranscription?.transcription) {
    out.enhancedTranscription = {
      ...base.enhancedTranscription,
      transcription: { ...base.enhancedTranscription.transcription, text, words },
    };
  }
  if (Array.isArray(base.utterances) || t.words.some((w) => w.speaker !== undefined)) {
    out.utterances = paragraphsOf(t.words).map((p): Utterance => {
      const ws = t.words.slice(p.first, p.end);
      return {
        speakerIds: p.speaker === undefined ? [] : [speakerOf(p.speaker)],
        overlap: false,
        start: time(ws[0]!.startMs),
        end: time(ws[ws.length - 1]!.endMs),
        text: joinWords(ws),
        words: words.slice(p.first, p.end),
      };
    });
  }
  return out;
}
