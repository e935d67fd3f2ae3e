// Caption layout presets, chosen per watch folder and for files added by hand. A preset fixes
// every field but `custom`, whose fields the editor sets. Pure.
import { z } from 'zod';
import type { CueOptions } from './cues.js';

export const CAPTION_PRESET_IDS = ['streaming', 'broadcast', 'vertical', 'custom'] as const;
export type CaptionPresetId = (typeof CAPTION_PRESET_IDS)[number];

export interface CaptionSettings {
  preset: CaptionPresetId;
  charsPerLine: number;
  lines: number;
  minDurationMs: number;
  maxDurationMs: number;
  minGapMs: number;
}

/** Streaming services' style guides (42 × 2), broadcast teletext width (37), phone-held video (32 × 1). */
export const CAPTION_PRESETS: Readonly<Record<Exclude<CaptionPresetId, 'custom'>, CaptionSettings>> = {
  streaming: { preset: 'streaming', charsPerLine: 42, lines: 2, minDurationMs: 1000, maxDurationMs: 7000, minGapMs: 0 },
  broadcast: {
    preset: 'broadcast',
    charsPerLine: 37,
    lines: 2,
    minDurationMs: 1000,
    maxDurationMs: 7000,
    minGapMs: 80,
  },
  vertical: { preset: 'vertical', charsPerLine: 32, lines: 1, minDurationMs: 800, maxDurationMs: 4000, minGapMs: 0 },
};

export const DEFAULT_CAPTIONS: CaptionSettings = CAPTION_PRESETS.streaming;

export const CAPTION_SETTINGS = z
  .object({
    preset: z.enum(CAPTION_PRESET_IDS).default('streaming'),
    charsPerLine: z.number().int().min(10).max(100).default(42),
    lines: z.number().int().min(1).max(4).default(2),
    minDurationMs: z.number().int().min(100).max(10_000).default(1000),
    maxDurationMs: z.number().int().min(500).max(30_000).default(7000),
    minGapMs: z.number().int().min(0).max(2000).default(0),
  })
  .refine((c) => c.minDurationMs <= c.maxDurationMs, {
    message: 'the shortest time on screen must not exceed the longest',
    path: ['minDurationMs'],
  })
  // A named preset always means its own values, whatever the stored fields say.
  .transform((c): CaptionSettings => (c.preset === 'custom' ? c : CAPTION_PRESETS[c.preset]));

/** The cue builder's options for a caption setting (absent: the Streaming preset). */
export function cueOptionsOf(c: CaptionSettings | undefined): Partial<CueOptions> {
  const s = c ?? DEFAULT_CAPTIONS;
  return {
    maxLineChars: s.charsPerLine,
    maxLines: s.lines,
    minDurationMs: s.minDurationMs,
    maxDurationMs: s.maxDurationMs,
    minGapMs: s.minGapMs,
  };
}
