// The review's running timecode: a moment of the media → its label on the file's timeline, for a
// player that moves every frame (a call over the bridge per frame would lag behind the picture).
// The label is common/timecode.ts's, as the editor formats write it, and the frame a moment falls
// in is common/frames.ts's, as the engine counts it. Part of the contract: no imports but its
// siblings and common/.
import { msToFrameFloor } from '../../common/frames.js';
import { formatTimecode } from '../../common/timecode.js';
import type { TimelineClockView } from './transcripts.js';

/** The frame a moment (seconds from the media's start) falls in, on the clock's rate. */
export function frameAt(seconds: number, clock: TimelineClockView): number {
  if (!Number.isFinite(seconds) || seconds <= 0) return 0;
  // Whole milliseconds first, as the engine counts (common/frames.ts).
  return msToFrameFloor(seconds * 1000, clock);
}

/** `HH:MM:SS:FF` (`;` before the frames in drop-frame) of a frame counted from the timeline's start, wrapping at 24 h. */
export function clockLabel(framesFromStart: number, clock: TimelineClockView): string {
  return formatTimecode(clock.startFrame + framesFromStart, clock);
}
