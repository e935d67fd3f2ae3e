// A string-out as an OpenTimelineIO timeline (`.otio`, the JSON OpenTimelineIO's own reader reads):
// DaVinci Resolve 18.5 and later imports it (File ▸ Import ▸ Timeline), and OpenTimelineIO's
// adapters take it on to Avid (AAF) and others. Timeline → Stack → a video track and an audio track:
// each bite a Clip whose ExternalReference links the media by file URL, its available range at the
// media's own timecode, its source range at the bite; an audio-only bite is a gap on the video
// track. The bite's label is a marker on its clip, at its first word, in its colour, with its note
// as the marker's comment. A gap row is a Gap on every track; a title card is a Gap named after its
// text with a marker holding the text (not a GeneratorReference: no NLE reads one as a title, and a
// named Gap imports everywhere, leaving the card's time free for the editor's own title). Pure.
//
// A bite's source range starts on its clip's frames and lasts its whole number of timeline frames
// (string-out.ts), so the clips sit back to back on the timeline's grid whatever their own rates.
import type { FrameRate } from '../timecode/rates.js';
import { fileUrl } from '../captions/editors/file-url.js';
import { timelineItems, type Bite, type PlacedSpacer, type StringOut } from './string-out.js';

type Json = Record<string, unknown>;

/** OpenTimelineIO counts rates as a float; a 1000/1001 rate is written as the division gives it. */
const fps = (r: FrameRate): number => r.num / r.den;

const time = (value: number, rate: FrameRate): Json => ({ OTIO_SCHEMA: 'RationalTime.1', rate: fps(rate), value });

const range = (start: Json, duration: Json): Json => ({ OTIO_SCHEMA: 'TimeRange.1', duration, start_time: start });

/** Resolve's marker colour names as OpenTimelineIO spells them. */
const MARKER_COLOUR: Record<Bite['colour'], string> = {
  Blue: 'BLUE',
  Cyan: 'CYAN',
  Green: 'GREEN',
  Yellow: 'YELLOW',
  Red: 'RED',
  Purple: 'PURPLE',
};

function clip(so: StringOut, b: Bite, withMarker: boolean): Json {
  const c = b.clip;
  const length = b.recordOut - b.recordIn;
  return {
    OTIO_SCHEMA: 'Clip.2',
    metadata: { sluice: { select: b.selectId, note: b.note, ...(b.speaker ? { speaker: b.speaker } : {}) } },
    name: b.label,
    source_range: range(time(c.mediaStartFrame + b.sourceIn, c.rate), time(length, so.rate)),
    effects: [],
    markers: withMarker
      ? [
          {
            OTIO_SCHEMA: 'Marker.2',
            metadata: {},
            name: b.label,
            color: MARKER_COLOUR[b.colour],
            comment: b.note,
            marked_range: range(time(c.mediaStartFrame + b.wordsIn, c.rate), time(0, c.rate)),
          },
        ]
      : [],
    enabled: true,
    media_references: {
      DEFAULT_MEDIA: {
        OTIO_SCHEMA: 'ExternalReference.1',
        metadata: {},
        name: c.fileName,
        available_range: range(time(c.mediaStartFrame, c.rate), time(c.durationFrames, c.rate)),
        available_image_bounds: null,
        target_url: fileUrl(c.path),
      },
    },
    active_media_reference_key: 'DEFAULT_MEDIA',
  };
}

function gap(so: StringOut, b: Bite | PlacedSpacer, withMarker = false): Json {
  const title = 'kind' in b && b.kind === 'title' ? (b.text ?? '') : undefined;
  const length = time(b.recordOut - b.recordIn, so.rate);
  return {
    OTIO_SCHEMA: 'Gap.1',
    metadata: 'kind' in b ? { sluice: { [b.kind]: title ?? true } } : {},
    name: title === undefined ? '' : `TITLE: ${title}`,
    source_range: range(time(0, so.rate), length),
    effects: [],
    markers:
      title !== undefined && withMarker
        ? [
            {
              OTIO_SCHEMA: 'Marker.2',
              metadata: { sluice: { title } },
              name: title,
              color: 'WHITE',
              comment: 'Title card',
              marked_range: range(time(0, so.rate), time(0, so.rate)),
            },
          ]
        : [],
    enabled: true,
  };
}

function track(name: string, kind: 'Video' | 'Audio', children: Json[]): Json {
  return {
    OTIO_SCHEMA: 'Track.1',
    metadata: {},
    name,
    source_range: null,
    effects: [],
    markers: [],
    enabled: true,
    children,
    kind,
  };
}

export function renderOtio(so: StringOut): string {
  const hasVideo = so.bites.some((b) => b.clip.hasVideo);
  const items = timelineItems(so);
  const video = items.map(({ bite: b, spacer }) =>
    spacer ? gap(so, spacer, true) : b.clip.hasVideo ? clip(so, b, true) : gap(so, b),
  );
  const audio = items.map(({ bite: b, spacer }) =>
    spacer ? gap(so, spacer, !hasVideo) : clip(so, b, !b.clip.hasVideo),
  );
  const tracks = [...(hasVideo ? [track('V1', 'Video', video)] : []), track('A1', 'Audio', audio)];
  const timeline = {
    OTIO_SCHEMA: 'Timeline.1',
    metadata: { sluice: { notes: so.notes, handles: so.handles } },
    name: so.name,
    global_start_time: time(so.startFrame, so.rate),
    tracks: {
      OTIO_SCHEMA: 'Stack.1',
      metadata: {},
      name: 'tracks',
      source_range: null,
      effects: [],
      markers: [],
      enabled: true,
      children: tracks,
    },
  };
  return `${JSON.stringify(timeline, null, 4)}\n`;
}
