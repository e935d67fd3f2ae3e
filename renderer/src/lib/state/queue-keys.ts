// The Queue list's keyboard map as a pure function: which action a key asks for, given what the
// selected job allows. The screen carries the action out; this decides it, so it is tested alone.

export type QueueAction =
  | { kind: 'select'; offset: number }
  | { kind: 'move'; to: 'up' | 'down' | 'top' | 'bottom' }
  | { kind: 'menu' }
  | { kind: 'undoDismiss' }
  | { kind: 'detail'; open: boolean }
  | { kind: 'dismiss' }
  | { kind: 'retry' }
  | { kind: 'cancel' }
  | { kind: 'openResult' }
  | { kind: 'pauseOrResume' };

export interface QueueKey {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** What the selected job allows (none selected: null). */
export interface SelectedJob {
  canMove: boolean;
  canDismiss: boolean;
  canRetry: boolean;
  canCancel: boolean;
  hasResult: boolean;
}

export interface QueueKeyAnswer {
  /** Nothing to do: null (the key still stops its default when `preventDefault`). */
  action: QueueAction | null;
  /** The key is the list's: its browser default (scrolling, a page's Space) is stopped. */
  preventDefault: boolean;
}

const answer = (action: QueueAction | null, preventDefault = false): QueueKeyAnswer => ({ action, preventDefault });
const NONE = answer(null);

export function queueKeyAction(e: QueueKey, job: SelectedJob | null, detailOpen: boolean): QueueKeyAnswer {
  const { key } = e;
  const letter = key.length === 1 ? key.toLowerCase() : '';
  if (key === 'ArrowDown' || key === 'ArrowUp') {
    if (!e.altKey) return answer({ kind: 'select', offset: key === 'ArrowDown' ? 1 : -1 }, true);
    return answer(job?.canMove ? { kind: 'move', to: key === 'ArrowUp' ? 'up' : 'down' } : null, true);
  }
  if (key === 'Home' || key === 'End') {
    if (!e.altKey) return answer({ kind: 'select', offset: key === 'Home' ? -Infinity : Infinity }, true);
    return answer(job?.canMove ? { kind: 'move', to: key === 'Home' ? 'top' : 'bottom' } : null, true);
  }
  if ((key === 'F10' && e.shiftKey) || key === 'ContextMenu') return answer(job ? { kind: 'menu' } : null, true);
  // Stops the browser's own undo only when there was a dismissal to undo (the screen knows).
  if (letter === 'z' && (e.ctrlKey || e.metaKey)) return answer({ kind: 'undoDismiss' });
  if (key === 'Enter') return job ? answer({ kind: 'detail', open: true }) : NONE;
  if (key === 'Escape') return answer({ kind: 'detail', open: false });
  if ((key === 'Delete' || key === 'Backspace') && job?.canDismiss) return answer({ kind: 'dismiss' }, true);
  // Space acts on the focused row (like a file manager's preview), never on the whole queue.
  if (key === ' ') return answer(job ? { kind: 'detail', open: !detailOpen } : null, true);
  if (e.ctrlKey || e.metaKey || e.altKey) return NONE;
  if (letter === 'r' && job?.canRetry) return answer({ kind: 'retry' });
  if (letter === 'c' && job?.canCancel) return answer({ kind: 'cancel' });
  if (letter === 'o' && job?.hasResult) return answer({ kind: 'openResult' });
  if (letter === 'p') return answer({ kind: 'pauseOrResume' });
  return NONE;
}

/** The Queue's keys as the shortcuts help lists them (`mod` is ⌘ or Ctrl); every action above has one. */
export function queueShortcuts(mod: string): Array<[string[], string]> {
  return [
    [['↑', '↓'], 'Move the selection'],
    [['Home', 'End'], 'Select the first or the last job'],
    [['Enter'], 'Show details'],
    [['Space'], 'Show or hide the selected job’s details'],
    [['Esc'], 'Hide the details'],
    [['P'], 'Pause or resume the queue'],
    [['R'], 'Retry the selected job'],
    [['C'], 'Cancel the selected job'],
    [['O'], 'Open the first result'],
    [['Alt', '↑/↓'], 'Move the job up or down'],
    [['Alt', 'Home/End'], 'Move the job to the top or the bottom'],
    [['Shift', 'F10'], 'More actions for the job'],
    [['Delete'], 'Remove the job from the list'],
    [[mod, 'Z'], 'Bring back the job removed last'],
  ];
}
