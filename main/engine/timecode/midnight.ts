// Midnight, decided once for every editor format. A clock's timecode starts again at 00:00:00:00
// after 23:59:59:xx, so a clip shot through midnight (a night shoot, a live event) would have
// labels that go back: iTT and SubCap captions ending before they begin, EDL markers Resolve and
// OpenTimelineIO refuse, while FCPXML and xmeml count on past 24 hours. No label format can pass
// 23:59:59, so such a clip is placed on a timeline that does not cross midnight: its start moves
// back by whole hours (as few as it takes), which keeps minutes, seconds and frames as the source's
// (in drop-frame too: an hour holds whole ten-minute cycles). Every format follows the one start,
// and the job says so. Only the timeline moves: the media's own start stays what the media says.
// A clip longer than a day starts at 00:00:00:00, the most it can hold. Pure.
import type { FrameRate } from './rates.js';
import { formatTimecode, framesPerDay, framesPerHour } from '../../../common/timecode.js';

export interface DayStart {
  startFrame: number;
  /** Present when the start was moved, saying from where to where and why. */
  note?: string;
}

/**
 * A timeline start for a clip reaching `lengthFrames` past it (the last caption's end, the last
 * marker's out, the media's end), such that no label the clip needs passes 23:59:59:xx: the
 * frame after the clip is still on the same day.
 */
export function withinDay(startFrame: number, lengthFrames: number, rate: FrameRate): DayStart {
  const day = framesPerDay(rate);
  const last = startFrame + Math.max(0, lengthFrames);
  if (last < day) return { startFrame };
  const hour = framesPerHour(rate);
  const hours = Math.ceil((last - (day - 1)) / hour);
  const moved = Math.max(0, startFrame - hours * hour);
  const from = formatTimecode(startFrame, rate);
  const to = formatTimecode(moved, rate);
  const by = moved === 0 ? 'to the day’s start' : `${hours} hour${hours === 1 ? '' : 's'} earlier`;
  return {
    startFrame: moved,
    note: `The timecode ${from} runs past midnight within this clip, and timecode labels cannot pass 23:59:59: the editor formats’ timeline starts ${by}, at ${to}.`,
  };
}
