// The review's keyboard map, one table for both the handler and the shortcuts help, so the help
// can never list a key the view does not answer (or miss one it does).

import type { WordStep } from './word-range.js';

export type ReviewAction =
  | 'togglePlay'
  | 'back'
  | 'forward'
  | 'shuttleBack'
  | 'pause'
  | 'shuttleForward'
  | 'nudgeBack'
  | 'nudgeForward'
  | 'largerPlayer'
  | 'fullScreen'
  | 'slower'
  | 'faster'
  | 'previousParagraph'
  | 'nextParagraph'
  | 'undo'
  | 'redo'
  | 'correct'
  | 'find'
  | 'addMarker'
  | 'addChapter'
  | 'markIn'
  | 'markOut'
  | 'addSelect'
  | 'selectBack'
  | 'selectForward'
  | 'selectHome'
  | 'selectEnd';

export interface ReviewKey {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  /** Focus is in a text field: every key, undo and redo included, belongs to it. */
  typing: boolean;
  /** Focus is on a button, link, menu or the player's own controls: Space and Enter are theirs. */
  onControl: boolean;
  /** K is held down: J and L then nudge by a frame instead of shuttling (as in an NLE). */
  kHeld?: boolean;
}

/** Seconds a back/forward key moves the playhead. */
export const SKIP_SECONDS = 5;
/** Playback rates the slower/faster keys step through. */
export const RATES = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2] as const;

const SELECT_KEYS: Readonly<Record<string, ReviewAction>> = {
  ArrowLeft: 'selectBack',
  ArrowRight: 'selectForward',
  Home: 'selectHome',
  End: 'selectEnd',
};

/** The step each word-selection action takes (word-range.ts moves the selection). */
export const SELECT_STEPS = {
  selectBack: 'back',
  selectForward: 'forward',
  selectHome: 'home',
  selectEnd: 'end',
} as const satisfies Partial<Record<ReviewAction, WordStep>>;

export function reviewKeyAction(e: ReviewKey): ReviewAction | null {
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  // Find is the review's, not the browser's (which cannot see paragraphs scrolled out of the DOM),
  // even from a text field.
  if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && key === 'f') return 'find';
  if (e.typing) return null;
  if (e.ctrlKey || e.metaKey) {
    if (e.altKey) return null;
    if (key === 'z') return e.shiftKey ? 'redo' : 'undo';
    if (key === 'y' && !e.shiftKey) return 'redo';
    return null;
  }
  if (e.altKey) {
    if (key === 'ArrowUp') return 'previousParagraph';
    if (key === 'ArrowDown') return 'nextParagraph';
    return null;
  }
  if (e.shiftKey && (key === 'j' || key === 'l')) return null;
  // Shift+arrows select words from the spoken one, as in a text (B then adds them); playback goes on.
  if (e.shiftKey && key in SELECT_KEYS) return e.onControl ? null : SELECT_KEYS[key]!;
  switch (key) {
    case ' ':
      return e.onControl ? null : 'togglePlay';
    case 'Enter':
      return e.onControl ? null : 'correct';
    // J/K/L shuttle as in an NLE; with K held, J and L nudge a frame.
    case 'k':
      return 'pause';
    case 'j':
      return e.kHeld ? 'nudgeBack' : 'shuttleBack';
    case 'l':
      return e.kHeld ? 'nudgeForward' : 'shuttleForward';
    // Arrows belong to the player's own controls, the speed menu and sliders when they have focus.
    case 'ArrowLeft':
      return e.onControl ? null : 'back';
    case 'ArrowRight':
      return e.onControl ? null : 'forward';
    case 't':
      return 'largerPlayer';
    case 'f':
      return 'fullScreen';
    case 'm':
      return 'addMarker';
    case 'c':
      return 'addChapter';
    // Selects as an NLE marks them, without stopping playback.
    case 'i':
      return 'markIn';
    case 'o':
      return 'markOut';
    case 'b':
      return 'addSelect';
    case '<':
      return 'slower';
    case '>':
      return 'faster';
    default:
      return null;
  }
}

/** The next playback rate up or down the steps (a rate between steps moves to its neighbour). */
export function stepRate(rate: number, direction: 1 | -1): number {
  if (direction > 0) return RATES.find((r) => r > rate + 1e-9) ?? RATES[RATES.length - 1]!;
  return [...RATES].reverse().find((r) => r < rate - 1e-9) ?? RATES[0];
}

/** For the shortcuts help: keys (already in display form but for the modifier) and what they do. */
export function reviewShortcuts(mod: string): Array<[string[], string]> {
  return [
    [['Space'], 'Play or pause'],
    [['L'], 'Play; again for 2× and 4×'],
    [['J'], 'Play backwards; again for 2× and 4×'],
    [['K'], 'Pause (stops J and L)'],
    [['K', 'J/L'], 'Hold K: back or forward one frame'],
    [['←', '→'], `Back or forward ${SKIP_SECONDS} seconds`],
    [['<', '>'], 'Slower or faster playback'],
    [['T'], 'Larger or smaller video player'],
    [['F'], 'Video full screen'],
    [['Alt', '↑/↓'], 'Previous or next paragraph'],
    [['Enter'], 'Correct the selected words'],
    [[mod, 'F'], 'Find and replace in the transcript'],
    [['M'], 'Add a marker at the playhead'],
    [['C'], 'Add a chapter at the playhead (when a recipe ran)'],
    [['I'], 'Start a select at the spoken word (playback goes on)'],
    [['O'], 'End the select at the spoken word: it joins the current list'],
    [['Shift', '←/→'], 'Select words from the spoken one, a word at a time'],
    [['Shift', 'Home/End'], 'Select to the start or end of the paragraph'],
    [['B'], 'Add the selected words (mouse or Shift+arrows) as a select'],
    [[mod, 'Z'], 'Undo'],
    [[mod, 'Shift', 'Z'], 'Redo'],
    [['Esc'], 'Clear selected words, cancel a correction, or close'],
  ];
}
