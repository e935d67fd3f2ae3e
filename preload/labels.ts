// What the service's field names are called on screen and in exported files: one map, read by the
// renderer and by main (CSV headers), so "BATCH_TRANSCRIPTION" reads "Batch transcription"
// everywhere. Strings only, no runtime imports (like contract.ts).

/** The usage report's operation types (§7.2, a complete enum). */
export const OPERATION_LABELS: Readonly<Record<string, string>> = {
  BATCH_TRANSCRIPTION: 'Batch transcription',
  REAL_TIME_TRANSCRIPTION: 'Live transcription',
  SPEAKERS_DIARIZATION: 'Speaker detection',
  VOICE_ACTIVITY_DETECTION: 'Speech detection',
  TRANSCODE: 'Media conversion',
  TRANSLATION: 'Translation',
  SUMMARIZATION: 'Summaries',
  SENTIMENT_ANALYSIS: 'Sentiment analysis',
  NO_OPERATION: 'Other',
  LLM_PROCESSING: 'Questions and AI processing',
};

/** The unit a measurement is reported in, and the one it is shown or exported in. */
export type MeasurementUnit = 'ms' | 'bytes' | 'count';

/** The usage report's measurements (§7.2): a label, the unit the service reports, and the CSV header. */
export const MEASUREMENT_LABELS: Readonly<Record<string, { label: string; unit: MeasurementUnit; csv: string }>> = {
  processedAudioLength: { label: 'Audio processed', unit: 'ms', csv: 'Audio processed (hours)' },
  executionTime: { label: 'Processing time', unit: 'ms', csv: 'Processing time (hours)' },
  storageSize: { label: 'Storage', unit: 'bytes', csv: 'Storage (bytes)' },
  ingressSize: { label: 'Uploaded', unit: 'bytes', csv: 'Uploaded (bytes)' },
  egressSize: { label: 'Downloaded', unit: 'bytes', csv: 'Downloaded (bytes)' },
  processedTokens: { label: 'AI tokens', unit: 'count', csv: 'AI tokens (count)' },
  processedInputTokens: { label: 'AI tokens read', unit: 'count', csv: 'AI tokens read (count)' },
  processedOutputTokens: { label: 'AI tokens written', unit: 'count', csv: 'AI tokens written (count)' },
};

/** Settings and filters named after service concepts, in the words an editor uses. */
export const FIELD_LABELS = {
  uploadConcurrency: { label: 'Uploads at once', hint: '1–16 files upload in parallel.' },
  maxStreamsInFlight: {
    label: 'Files processing at once',
    hint: 'How many files the service works on at the same time; more wait in the queue.',
  },
  includeExternal: { label: 'Include files sent by other tools' },
} as const;

/** "BATCH_TRANSCRIPTION" → "Batch transcription"; an operation the map does not know is made readable. */
export function operationLabel(operationType: string | undefined): string {
  if (!operationType) return 'Other';
  return OPERATION_LABELS[operationType] ?? humanize(operationType);
}

/** A measurement's label; an unknown one is made readable ("processedFrames" → "Processed frames"). */
export function measurementLabel(key: string): string {
  return MEASUREMENT_LABELS[key]?.label ?? humanize(key);
}

/** "Amount (USD)" when a currency is chosen, "Credits" otherwise. */
export function amountLabel(currency: string | null | undefined): string {
  return currency ? `Amount (${currency})` : 'Credits';
}

function humanize(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
