import { describe, expect, it } from 'vitest';
import type { MoveDirection } from '../../preload/contract.js';
import { jobMenuItems } from '../../renderer/src/lib/job-menu.js';

// Records what each item asks the screen to do, so a test can choose an item and see the call.
function recorder() {
  const calls: string[] = [];
  return {
    calls,
    actions: {
      details: () => void calls.push('details'),
      move: (d: MoveDirection) => void calls.push(`move:${d}`),
      dismiss: () => void calls.push('dismiss'),
    },
  };
}

describe('jobMenuItems', () => {
  it('lists details and the four moves, enabled, for a waiting job', () => {
    const { actions } = recorder();
    const items = jobMenuItems({ canMove: true, canDismiss: false }, actions);
    expect(items.map((i) => [i.label, !!i.disabled, !!i.separated])).toEqual([
      ['Show details', false, false],
      ['Move to top', false, true],
      ['Move up', false, false],
      ['Move down', false, false],
      ['Move to bottom', false, false],
    ]);
  });

  it('keeps the moves listed but disabled for a job that can no longer move, and adds removal when finished', () => {
    const { actions } = recorder();
    const items = jobMenuItems({ canMove: false, canDismiss: true }, actions);
    expect(items.map((i) => i.label)).toEqual([
      'Show details',
      'Move to top',
      'Move up',
      'Move down',
      'Move to bottom',
      'Remove from list',
    ]);
    expect(items.filter((i) => i.disabled).map((i) => i.label)).toEqual([
      'Move to top',
      'Move up',
      'Move down',
      'Move to bottom',
    ]);
    expect(items.at(-1)).toMatchObject({ label: 'Remove from list', separated: true });
    expect(items.at(-1)?.disabled).toBeFalsy();
  });

  it('has each item call the action it names, with the move direction', () => {
    const { calls, actions } = recorder();
    for (const item of jobMenuItems({ canMove: true, canDismiss: true }, actions)) item.onselect();
    expect(calls).toEqual(['details', 'move:top', 'move:up', 'move:down', 'move:bottom', 'dismiss']);
  });
});
