// The three small state classes alone: the review's find bar over words that change, the shared
// one-second clock, and a file's cost as the Queue and History details read it over the bridge.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useBridge } from '../../../renderer/src/lib/api.js';
import { clock } from '../../../renderer/src/lib/state/clock.svelte.js';
import { fileCosts } from '../../../renderer/src/lib/state/file-cost.svelte.js';
import { FindState } from '../../../renderer/src/lib/state/find.svelte.js';
import { openBridgeEnv, type BridgeEnv } from './in-process-bridge.js';
import { Words } from './rows.svelte.js';

const words = (text: string): Array<{ text: string }> => text.split(' ').map((t) => ({ text: t }));

describe('the find bar', () => {
  it('finds every match, steps from the word shown and wraps, and follows the words as they change', () => {
    const shown = new Words('Mooflow met the Mooflow team, then Mooflow left.');
    const find = new FindState(() => shown.list);
    find.show();
    find.setQuery('mooflow');
    expect(find.matches).toHaveLength(3);
    expect(find.index).toBe(-1);
    // The first step starts at the match nearest the word shown (from word 5: the one at word 6);
    // the next wraps to the first, and back wraps to the last.
    expect(find.step(1, 5)?.from).toBe(6);
    expect(find.step(1, 0)?.from).toBe(0);
    expect(find.step(-1, 0)?.from).toBe(6);
    find.setReplacement('MoveFlow');
    expect(find.replaceAllEdit()?.replacements.map((r) => [r.from, r.text])).toEqual([
      [0, 'MoveFlow'],
      [3, 'MoveFlow'],
      [6, 'MoveFlow'],
    ]);
    expect(find.replaceOneEdit()?.replacements).toEqual([{ from: 6, to: 7, text: 'MoveFlow' }]);
    // The words replaced: the matches go with them, and the index shown no longer points past them.
    shown.set('MoveFlow met the MoveFlow team, then MoveFlow left.');
    expect(find.matches).toEqual([]);
    expect(find.index).toBe(-1);
    expect(find.current).toBeNull();
    expect(find.step(1, 0)).toBeNull();
    expect(find.replaceAllEdit()).toBeNull();
    find.hide();
    expect(find.open).toBe(false);
  });

  it('a replacement that changes nothing is no edit', () => {
    const find = new FindState(() => words('the harbour at dawn'));
    find.setQuery('harbour');
    find.setReplacement('harbour');
    expect(find.matches).toHaveLength(1);
    expect(find.replaceAllEdit()).toBeNull();
  });
});

describe('the shared clock', () => {
  afterEach(() => vi.useRealTimers());

  it('ticks each second while someone uses it, and stops when the last one lets go', () => {
    vi.useFakeTimers({ now: new Date('2026-11-27T10:00:00Z') });
    const stopA = clock.use();
    const stopB = clock.use();
    vi.advanceTimersByTime(3000);
    expect(clock.now).toBe(Date.parse('2026-11-27T10:00:03Z'));
    stopA();
    vi.advanceTimersByTime(1000);
    expect(clock.now).toBe(Date.parse('2026-11-27T10:00:04Z'));
    stopB();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(clock.now).toBe(Date.parse('2026-11-27T10:00:04Z'));
  });
});

describe('a file’s cost', () => {
  let env: BridgeEnv;
  beforeAll(async () => {
    env = await openBridgeEnv();
    useBridge(env.api);
  });
  afterAll(async () => env.close());

  it('a stream the service does not know gives main’s sentence, kept for that stream only', async () => {
    expect(fileCosts.get('5f0c0e4e-0000-4000-8000-000000000000')).toBeUndefined();
    const loading = fileCosts.load('5f0c0e4e-0000-4000-8000-000000000000');
    expect(fileCosts.get('5f0c0e4e-0000-4000-8000-000000000000')).toEqual({ loading: true });
    await loading;
    const got = fileCosts.get('5f0c0e4e-0000-4000-8000-000000000000');
    expect(got?.loading).toBe(false);
    expect(got?.cost).toBeUndefined();
    expect(got?.error).toMatch(/\w+/);
    expect(fileCosts.get('another')).toBeUndefined();
  });
});
