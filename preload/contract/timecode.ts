// The review's running timecode: a moment of the media → its label on the file's timeline, for a
// player that moves every frame (a call over the bridge per frame would lag behind the picture).
// The label is common/timecode.ts's, as the editor formats write it; the frame a moment falls in
// is a copy of the engine's msToFrameFloor (main/engine/timecode/frames.ts), kept equal to it by
// test/engine/timecode/clock-label.test.ts over every rate. Part of the contract: no imports but
// its siblings and common/.
import { formatTimecode } from '../../common/timecode.js';
import type { TimelineClockView } from './transcripts.js';

/** The frame a moment (seconds from the media's start) falls in, on the clock's rate. */
export function frameAt(seconds: number, clock: TimelineClockView): number {
  if (!Number.isFinite(seconds) || seconds <= 0) return 0;
  // Whole milliseconds first, as the engine counts; then ⌊ms·num / (den·1000)⌋.
  const ms = Math.round(seconds * 1000);
  const a = ms * clock.num;
  const b = clock.den * 1000;
  let q = Math.floor(a / b);
  // A float quotient can land one off an exact integer; step onto it.
  while (q * b > a) q--;
  while ((q + 1) * b <= a) q++;
  return q;
}

/** `HH:MM:SS:FF` (`;` before the frames in drop-frame) of a frame counted from the timeline's start, wrapping at 24 h. */
export function clockLabel(framesFromStart: number, clock: TimelineClockView): string {
  return formatTimecode(clock.startFrame + framesFromStart, clock);
}
