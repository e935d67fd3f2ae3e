// What a media file says about itself, as the one media probe (adapters) reports it and the engine
// reads it: how long it is, and where its own timeline starts. Types only: the probe does the I/O,
// the timecode module (engine/timecode/) turns these facts into frames on the timeline's rate.

import type { FrameRate } from '../../common/timecode.js';

/** A frame rate as a rational (frames per second = num / den), drop-frame only for 29.97 and 59.94. */
export type { FrameRate };

/** Where the media's own timeline starts, as the container stores it. */
export type SourceStart =
  /** A timecode track or component (MOV/MP4 `tmcd`, MXF) or a camera's XML sidecar: a frame count on `rate`. */
  | {
      readonly kind: 'frames';
      readonly frames: number;
      readonly rate: FrameRate;
      readonly from: 'tmcd' | 'mxf' | 'sidecar';
    }
  /** A Broadcast WAV `bext` TimeReference: samples since midnight at the file's sample rate. */
  | { readonly kind: 'samples'; readonly samples: number; readonly sampleRate: number; readonly from: 'bext' };

export interface MediaFacts {
  /** Real duration in milliseconds; null when the container does not say (the file is then not measured). */
  readonly durationMs: number | null;
  readonly hasAudio: boolean;
  /** The video's frame rate, when there is video. */
  readonly videoRate: FrameRate | null;
  /** The picture's size in pixels, when the video says (Final Cut's format for the clip states it). */
  readonly frameSize?: { readonly width: number; readonly height: number };
  /** Null: the media says nothing, so its timeline starts at 00:00:00:00 on the folder's default rate. */
  readonly start: SourceStart | null;
  /**
   * Why the media's own start was not taken though it carries one (a timecode no clock shows, a
   * camera sidecar that does not read): the start is then 00:00:00:00, and the job says this.
   */
  readonly startNote?: string;
}
