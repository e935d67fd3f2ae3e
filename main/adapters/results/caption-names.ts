// How caption files are named besides `{name}.srt`: each further layout a job asks for
// (`{name}.vertical.srt`, the folder option, and a re-flow that does not replace the main captions:
// presets.ts reflowCaptions), and the name the main captions take when `{name}.srt` belongs to
// another file, such as the telemetry `.SRT` a DJI drone or Osmo writes beside `DJI_0001.MP4`.
import { CAPTION_PRESETS } from '../../engine/captions/presets.js';
import { askedLanguage } from '../../engine/captions/render.js';
import { spokenLanguage } from '../../engine/captions/normalize.js';
import { languageTag } from '../../engine/captions/editors/document.js';
import type { JobRecord } from '../../engine/job.js';
import type { OutputSettings, ResultFormat } from '../../engine/settings.js';
import { LAYOUT_FORMATS } from '../../../common/formats.js';

/**
 * Every format to write, then each further caption layout the output asks for (a Broadcast `.srt`
 * and a Vertical `.vertical.srt` from one transcript), in the SRT and VTT formats chosen; a layout
 * that is the first one already is not written twice.
 */
export function withMoreCaptions(
  formats: readonly ResultFormat[],
  job: JobRecord,
  output: OutputSettings,
): Array<{ format: ResultFormat; layout?: string; job: JobRecord }> {
  const out: Array<{ format: ResultFormat; layout?: string; job: JobRecord }> = formats.map((format) => ({
    format,
    job,
  }));
  for (const preset of output.moreCaptions ?? []) {
    if (preset === output.captions.preset) continue;
    const layoutJob: JobRecord = { ...job, output: { ...output, captions: CAPTION_PRESETS[preset] } };
    for (const format of formats.filter((f) => LAYOUT_FORMATS.includes(f)))
      out.push({ format, layout: preset, job: layoutJob });
  }
  return out;
}

/**
 * The captions' name when `{name}.srt` is held by a file Sluice did not write (a DJI clip's
 * telemetry `DJI_0001.SRT`, the same name where case is ignored): `{name}.{language}.srt`, the name
 * players load by themselves (mpv and IINA take the clip's name with a language suffix, VLC any
 * subtitle whose name starts with the clip's), rather than `{name}.MP4.srt`, which they skip. The
 * language is the one the words carry most, else the one asked for; `und` when nothing says.
 * Undefined for formats that are not captions, for a further layout, and when the results already
 * carry a language suffix (their plain name is `{name}.en.srt` already).
 */
export function languageTaggedExtension(
  format: ResultFormat,
  extension: string,
  exportText: string,
  job: JobRecord,
  output: OutputSettings,
  layout?: string,
): string | undefined {
  if (!LAYOUT_FORMATS.includes(format) || layout || output.languageSuffix) return undefined;
  const tag = languageTag([spokenLanguage(exportText), askedLanguage(job)]);
  // The language alone (`pt`, not `pt-BR`): the part every player reads as one.
  return `${tag.split('-')[0]!}.${extension}`;
}
