// The export document (§6.3, C18) of a completed stream: the simulated transcript plus the
// audio-intelligence sections its llm properties ask for. Deterministic for a given seed.
import type { TemplateSpec } from '../service/templates.js';
import type { AskAnythingEntry, ExportResult, Sentiment, SentimentSegment } from '../service/types.js';
import { answerFromSchema } from './ask-answer.js';
import { enhancedWords } from './enhanced-transcript.js';
import type { MediaInfo } from './media-probe.js';
import { isRomanian, type Props } from './processor-defaults.js';
import { generateTranscript, type Sentence, type Transcript } from './transcript.js';

export interface ResultInput {
  seed: string;
  template: TemplateSpec;
  /** Effective properties, aligned with template.processors. */
  properties: readonly Props[];
  media: Extract<MediaInfo, { kind: 'media' }>;
}

interface LlmFeatures {
  summary: { length: string; tone: string; structure: string } | null;
  sentiment: boolean;
  asks: Array<{ promptId: string; content: string; system: string; spec: string | null; echoSpec: boolean }>;
  enhanced: boolean;
  /** `etVocabulary`: the terms the enhanced transcription spells as given ('' when none). */
  vocabulary: string;
}

const obj = (v: unknown): Props => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Props) : {});

export function llmFeatures(template: TemplateSpec, properties: readonly Props[]): LlmFeatures {
  const llm = properties[template.processors.indexOf('llm')];
  const none: LlmFeatures = { summary: null, sentiment: false, asks: [], enhanced: false, vocabulary: '' };
  if (!llm) return none;
  const summary = obj(llm.summary);
  const sp = obj(summary.properties);
  const asks = (Array.isArray(llm.askAnything) ? llm.askAnything : []).flatMap((slot: unknown, n: number) => {
    const s = obj(slot);
    if (typeof s.content !== 'string' || s.content.trim() === '' || s.enabled === false) return [];
    const rf = obj(s.responseFormat);
    return [
      {
        promptId: typeof s.promptId === 'string' && s.promptId !== '' ? s.promptId : String(n),
        content: s.content,
        system: typeof s.systemPrompt === 'string' ? s.systemPrompt : '',
        spec: typeof rf.specification === 'string' ? rf.specification : null,
        echoSpec: rf.includeInResponse === true,
      },
    ];
  });
  return {
    summary:
      summary.enabled === true
        ? {
            length: String(sp.length ?? 'brief'),
            tone: String(sp.tone ?? 'conversational'),
            structure: String(sp.structure ?? 'paragraphs'),
          }
        : null,
    sentiment: obj(llm.sentimentAnalysis).enabled === true,
    asks,
    enhanced: obj(llm.enhancedTranscription).enabled === true,
    vocabulary: String(obj(llm.enhancedTranscription).vocabulary ?? ''),
  };
}

/** True when the llm processor has real work (else it completes with "Stream has no prompt enabled"). */
export function llmHasWork(template: TemplateSpec, properties: readonly Props[]): boolean {
  const f = llmFeatures(template, properties);
  return f.summary !== null || f.sentiment || f.asks.length > 0 || f.enhanced;
}

function transcriptFor(input: ResultInput): Transcript {
  const { template, properties, media } = input;
  const tr = properties[template.processors.indexOf('transcriber')] ?? {};
  const dz = properties[template.processors.indexOf('diarization')];
  const ro = isRomanian(template);
  const langs = ro
    ? ['ro']
    : Array.isArray(tr.allowedLanguages) && tr.allowedLanguages.length > 0
      ? (tr.allowedLanguages as string[])
      : typeof tr.language === 'string'
        ? [tr.language]
        : ['en'];
  const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
  return generateTranscript({
    seed: input.seed,
    durationMs: media.durationMs,
    speechless: media.speechless,
    languages: langs,
    vocabulary: ro ? 'ro' : 'en',
    ...(media.speech === undefined ? {} : { speech: media.speech }),
    ...(template.diarizes && dz
      ? { speakers: { exact: num(dz.speakersNumber), min: num(dz.minSpeakersNumber), max: num(dz.maxSpeakersNumber) } }
      : {}),
    ...(tr.splitStereo === true && (media.channels ?? 1) > 1 ? { channels: 2 } : {}),
  });
}

export function buildResult(input: ResultInput): ExportResult {
  if (input.template.processors.includes('transcoder')) {
    const m = input.media;
    return {
      media: { durationMs: m.durationMs, channels: m.channels, sampleRate: m.sampleRate, container: m.container },
    };
  }
  const t = transcriptFor(input);
  const f = llmFeatures(input.template, input.properties);
  const out: ExportResult = { transcription: { text: t.text, words: t.words } };
  if (t.utterances) out.utterances = t.utterances;
  if (f.summary) out.summary = { content: summarise(t.sentences, f.summary) };
  if (f.sentiment) out.sentimentAnalysis = sentiment(t.sentences);
  if (f.asks.length > 0) {
    const entries: Record<string, AskAnythingEntry> = {};
    for (const a of f.asks) {
      entries[a.promptId] = {
        promptId: a.promptId,
        content:
          a.spec !== null
            ? JSON.stringify(answerFromSchema(a.spec, { seed: input.seed, sentences: t.sentences }))
            : `[Simulated answer] You asked: "${a.content}". ${sentenceCount(t)}`,
        responseFormatSpecification: a.echoSpec ? a.spec : null,
      };
    }
    out.askAnything = entries;
  }
  if (f.enhanced) {
    const words = enhancedWords(t.words, f.vocabulary);
    out.enhancedTranscription = { transcription: { text: words.map((w) => w.word).join(''), words } };
  }
  return out;
}

const sentenceCount = (t: Transcript): string =>
  t.sentences.length === 0 ? 'No speech was detected.' : `The recording contains ${t.sentences.length} sentences.`;

function summarise(sentences: readonly Sentence[], s: NonNullable<LlmFeatures['summary']>): string {
  const body = sentences.slice(1).map((x) => x.text.trim());
  if (body.length === 0)
    return s.structure === 'bullet_points'
      ? '- No speech was detected (simulated summary).'
      : 'No speech was detected (simulated summary).';
  const n = s.length === 'detailed' ? Math.min(6, body.length) : Math.min(3, body.length);
  const picked = body.slice(0, n);
  const lead =
    s.tone === 'informative'
      ? 'Simulated summary of the recording.'
      : 'This is a simulated summary of the conversation.';
  return s.structure === 'bullet_points'
    ? [`- ${lead}`, ...picked.map((x) => `- ${x}`)].join('\n')
    : `${lead} ${picked.join(' ')}`;
}

const label = (score: number): Sentiment => (score > 0.25 ? 'positive' : score < -0.25 ? 'negative' : 'neutral');

function sentiment(sentences: readonly Sentence[]): NonNullable<ExportResult['sentimentAnalysis']> {
  const segments: SentimentSegment[] = sentences.map((s) => ({
    text: s.text,
    sentiment: label(s.score),
    ...(s.channel !== null ? { channel: Number(s.channel) } : {}),
    startTime: s.start,
    endTime: s.end,
    score: s.score,
  }));
  const counts = (segs: SentimentSegment[]) => {
    const avg = segs.length ? Math.round((segs.reduce((a, x) => a + x.score, 0) / segs.length) * 1000) / 1000 : 0;
    return {
      negativeCount: segs.filter((x) => x.sentiment === 'negative').length,
      positiveCount: segs.filter((x) => x.sentiment === 'positive').length,
      neutralCount: segs.filter((x) => x.sentiment === 'neutral').length,
      averageScore: avg,
      sentiment: label(avg),
    };
  };
  const channels = [...new Set(segments.map((x) => x.channel).filter((c): c is number => c !== undefined))];
  return {
    segments,
    summary: {
      ...counts(segments),
      ...(channels.length > 0
        ? { channels: channels.map((c) => ({ channel: c, ...counts(segments.filter((x) => x.channel === c)) })) }
        : {}),
    },
  };
}
