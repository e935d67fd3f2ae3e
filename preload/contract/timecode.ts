// The review's running timecode: a moment of the media → its label on the file's timeline, for a
// player that moves every frame (a call over the bridge per frame would lag behind the picture).
// The renderer may import only the contract, so this is the one small copy of the engine's
// labelling (main/engine/timecode/timecode.ts), kept equal to it by test/engine/timecode/
// clock-label.test.ts over every rate. Part of the contract: no imports but its siblings.
import type { TimelineClockView } from './transcripts.js';

const pad = (v: number): string => String(v).padStart(2, '0');

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
  const fps = Math.round(clock.num / clock.den);
  const drop = clock.dropFrame ? Math.round(fps / 15) : 0;
  const day = fps * 86_400 - drop * 9 * 144;
  let f = (((clock.startFrame + framesFromStart) % day) + day) % day;
  if (drop > 0) {
    // Drop-frame skips the numbers 00–01 (00–03 at 59.94) at each minute but every tenth.
    const perTen = fps * 600 - drop * 9;
    const perMinute = fps * 60 - drop;
    const rest = f % perTen;
    f += drop * 9 * Math.floor(f / perTen) + (rest < drop ? 0 : drop * Math.floor((rest - drop) / perMinute));
  }
  const sep = clock.dropFrame ? ';' : ':';
  return `${pad(Math.floor(f / (fps * 3600)))}:${pad(Math.floor(f / (fps * 60)) % 60)}:${pad(Math.floor(f / fps) % 60)}${sep}${pad(f % fps)}`;
}
