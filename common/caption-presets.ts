// Caption layout presets and their names, once: main's engine builds captions from the numbers,
// and the renderer's choosers show labels made from the same numbers (a preset is one row here).

/** The presets that fix every field: what a rewrite or a second caption output may name. */
export const CAPTION_PRESET_NAMES = ['streaming', 'broadcast', 'vertical'] as const;
export type CaptionPresetName = (typeof CAPTION_PRESET_NAMES)[number];
/** Every preset: the named ones, then Custom, whose fields the editor sets. */
export const CAPTION_PRESET_IDS = [...CAPTION_PRESET_NAMES, 'custom'] as const;
export type CaptionPresetId = (typeof CAPTION_PRESET_IDS)[number];

export interface CaptionSettings {
  preset: CaptionPresetId;
  charsPerLine: number;
  lines: number;
  minDurationMs: number;
  maxDurationMs: number;
  minGapMs: number;
  /** "Speaker 1: " before a speaker's first caption (SRT) and voice tags (VTT); burn-ins want none. */
  speakerLabels: boolean;
}

/** The numbers Custom lets an editor set, in the order the editor shows them. */
export const CAPTION_NUMBER_FIELDS = ['charsPerLine', 'lines', 'minDurationMs', 'maxDurationMs', 'minGapMs'] as const;
export type CaptionNumberField = (typeof CAPTION_NUMBER_FIELDS)[number];

/** What each number is called on screen, and the whole numbers a stored setting may hold. */
export const CAPTION_FIELDS: Readonly<Record<CaptionNumberField, { label: string; min: number; max: number }>> = {
  charsPerLine: { label: 'Characters per line', min: 10, max: 100 },
  lines: { label: 'Lines', min: 1, max: 4 },
  minDurationMs: { label: 'Shortest on screen (ms)', min: 100, max: 10_000 },
  maxDurationMs: { label: 'Longest on screen (ms)', min: 500, max: 30_000 },
  minGapMs: { label: 'Gap between captions (ms)', min: 0, max: 2000 },
};

/** Streaming services' style guides (42 × 2), broadcast teletext width (37), phone-held video (32 × 1). */
export const CAPTION_PRESETS: Readonly<Record<CaptionPresetName, CaptionSettings>> = {
  streaming: {
    preset: 'streaming',
    charsPerLine: 42,
    lines: 2,
    minDurationMs: 1000,
    maxDurationMs: 7000,
    minGapMs: 0,
    speakerLabels: true,
  },
  broadcast: {
    preset: 'broadcast',
    charsPerLine: 37,
    lines: 2,
    minDurationMs: 1000,
    maxDurationMs: 7000,
    minGapMs: 80,
    speakerLabels: true,
  },
  // Social burn-ins: 11 of 32 characters spent on "Speaker 1: " is a third of the line.
  vertical: {
    preset: 'vertical',
    charsPerLine: 32,
    lines: 1,
    minDurationMs: 800,
    maxDurationMs: 4000,
    minGapMs: 0,
    speakerLabels: false,
  },
};

export const DEFAULT_CAPTIONS: CaptionSettings = CAPTION_PRESETS.streaming;

/** What people call each preset: the whole name, and the word a caption file's layout goes by. */
const NAMES: Readonly<Record<CaptionPresetId, { name: string; short: string }>> = {
  streaming: { name: 'Streaming', short: 'Streaming' },
  broadcast: { name: 'Broadcast', short: 'Broadcast' },
  vertical: { name: 'Vertical video', short: 'Vertical' },
  custom: { name: 'Custom', short: 'Custom' },
};

export const isCaptionPresetName = (v: unknown): v is CaptionPresetName =>
  typeof v === 'string' && Object.hasOwn(CAPTION_PRESETS, v);

/** "Vertical video": the preset's name alone (summaries, lists of layouts). */
export function captionPresetName(id: CaptionPresetId): string {
  return NAMES[id].name;
}

const seconds = (ms: number): string => String(ms / 1000);

/**
 * "Broadcast (2 lines × 37, 1–7 s)", "Vertical video (1 line × 32, 0.8–4 s, no speaker names)":
 * the chooser's label, made from the preset's own numbers. Custom is its name only.
 */
export function captionPresetLabel(id: CaptionPresetId): string {
  if (!isCaptionPresetName(id)) return NAMES[id].name;
  const p = CAPTION_PRESETS[id];
  const lines = `${p.lines} line${p.lines === 1 ? '' : 's'} × ${p.charsPerLine}`;
  const time = `${seconds(p.minDurationMs)}–${seconds(p.maxDurationMs)} s`;
  return `${NAMES[id].name} (${lines}, ${time}${p.speakerLabels ? '' : ', no speaker names'})`;
}

/** "Vertical captions (no names)": a layout of a job's captions, as "Save results again" offers it. */
export function captionLayoutName(id: CaptionPresetName): string {
  return `${NAMES[id].short} captions${CAPTION_PRESETS[id].speakerLabels ? '' : ' (no names)'}`;
}
