// Caption layout presets, chosen per watch folder and for files added by hand. A preset fixes
// every field but `custom`, whose fields the editor sets. Pure.
import { z } from 'zod';
import type { CueOptions } from './cues.js';
import {
  CAPTION_FIELDS,
  CAPTION_PRESET_IDS,
  CAPTION_PRESETS,
  DEFAULT_CAPTIONS,
  type CaptionNumberField,
  type CaptionPresetId,
  type CaptionSettings,
} from '../../../common/caption-presets.js';

// The presets' numbers and names are common/caption-presets.ts's (the renderer labels them from it);
// here are what only main does with them: the stored setting's schema, the cue options, re-flowing.
export {
  CAPTION_PRESET_IDS,
  CAPTION_PRESETS,
  DEFAULT_CAPTIONS,
  type CaptionPresetId,
  type CaptionSettings,
} from '../../../common/caption-presets.js';

/** A Custom number in its range (common/caption-presets.ts), absent: the default preset's. */
const captionNumber = (key: CaptionNumberField) =>
  z.number().int().min(CAPTION_FIELDS[key].min).max(CAPTION_FIELDS[key].max).default(DEFAULT_CAPTIONS[key]);

export const CAPTION_SETTINGS = z
  .object({
    preset: z.enum(CAPTION_PRESET_IDS).default(DEFAULT_CAPTIONS.preset),
    charsPerLine: captionNumber('charsPerLine'),
    lines: captionNumber('lines'),
    minDurationMs: captionNumber('minDurationMs'),
    maxDurationMs: captionNumber('maxDurationMs'),
    minGapMs: captionNumber('minGapMs'),
    /** Absent: the preset's own choice (Custom: labels). */
    speakerLabels: z.boolean().optional(),
  })
  .refine((c) => c.minDurationMs <= c.maxDurationMs, {
    message: 'the shortest time on screen must not exceed the longest',
    path: ['minDurationMs'],
  })
  // A named preset always means its own layout, whatever the stored fields say; only whether
  // speakers are labelled may be chosen against it.
  .transform((c): CaptionSettings =>
    c.preset === 'custom'
      ? { ...c, speakerLabels: c.speakerLabels ?? true }
      : { ...CAPTION_PRESETS[c.preset], speakerLabels: c.speakerLabels ?? CAPTION_PRESETS[c.preset].speakerLabels },
  );

/** A named preset's settings, for a caller that names only the preset (`sluice rewrite --preset`). */
export function captionPreset(id: Exclude<CaptionPresetId, 'custom'>): CaptionSettings {
  return CAPTION_PRESETS[id];
}

/** The cue builder's options for a caption setting (absent: the Streaming preset). */
export function cueOptionsOf(c: CaptionSettings | undefined): Partial<CueOptions> {
  const s = c ?? DEFAULT_CAPTIONS;
  return {
    maxLineChars: s.charsPerLine,
    maxLines: s.lines,
    minDurationMs: s.minDurationMs,
    maxDurationMs: s.maxDurationMs,
    minGapMs: s.minGapMs,
    // Settings kept before the choice existed carry none: labelled, as then.
    speakerLabels: s.speakerLabels !== false,
  };
}

/** What re-flowing the captions to another layout changes in a job's output. */
export type Reflow =
  { captions: CaptionSettings } | { moreCaptions: Array<Exclude<CaptionPresetId, 'custom'>> } | Record<string, never>;

/**
 * Re-flowing a finished job's captions to `id` (the review's "Save results again", History's
 * re-export): the new layout goes beside the main captions, as one more layout of the job, so it
 * is named as the folder option names more layouts (`{name}.vertical.srt`, write-results.ts) and
 * the main `.srt` stays as it was. Only when the editor asks to `replace` does the layout become
 * the main one, written over the main `.srt`. A layout the main captions already have adds nothing.
 */
export function reflowCaptions(
  output: { captions: CaptionSettings; moreCaptions?: ReadonlyArray<Exclude<CaptionPresetId, 'custom'>> } | undefined,
  id: Exclude<CaptionPresetId, 'custom'>,
  replace: boolean,
): Reflow {
  if (replace) return { captions: captionPreset(id) };
  if ((output?.captions ?? DEFAULT_CAPTIONS).preset === id) return {};
  const more = output?.moreCaptions ?? [];
  return { moreCaptions: more.includes(id) ? [...more] : [...more, id] };
}
