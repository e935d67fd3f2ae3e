import { describe, expect, it } from 'vitest';
import {
  RATES,
  reviewKeyAction,
  reviewShortcuts,
  SELECT_STEPS,
  stepRate,
  type ReviewKey,
} from '../../renderer/src/lib/state/review-keys.js';

const press = (key: string, extra: Partial<ReviewKey> = {}): ReturnType<typeof reviewKeyAction> =>
  reviewKeyAction({
    key,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    typing: false,
    onControl: false,
    ...extra,
  });

describe('reviewKeyAction', () => {
  it.each([
    [' ', {}, 'togglePlay'],
    ['k', {}, 'pause'],
    ['K', { shiftKey: true }, 'pause'],
    ['j', {}, 'shuttleBack'],
    ['l', {}, 'shuttleForward'],
    ['j', { kHeld: true }, 'nudgeBack'],
    ['l', { kHeld: true }, 'nudgeForward'],
    ['ArrowLeft', {}, 'back'],
    ['ArrowRight', {}, 'forward'],
    ['t', {}, 'largerPlayer'],
    ['f', {}, 'fullScreen'],
    ['m', {}, 'addMarker'],
    ['M', { shiftKey: true }, 'addMarker'],
    ['c', {}, 'addChapter'],
    ['C', { shiftKey: true }, 'addChapter'],
    ['i', {}, 'markIn'],
    ['o', {}, 'markOut'],
    ['b', {}, 'addSelect'],
    ['<', { shiftKey: true }, 'slower'],
    ['>', { shiftKey: true }, 'faster'],
    ['ArrowUp', { altKey: true }, 'previousParagraph'],
    ['ArrowDown', { altKey: true }, 'nextParagraph'],
    ['Enter', {}, 'correct'],
    ['z', { ctrlKey: true }, 'undo'],
    ['z', { metaKey: true }, 'undo'],
    ['Z', { ctrlKey: true, shiftKey: true }, 'redo'],
    ['y', { ctrlKey: true }, 'redo'],
    ['f', { ctrlKey: true }, 'find'],
    ['F', { metaKey: true }, 'find'],
    ['ArrowLeft', { shiftKey: true }, 'selectBack'],
    ['ArrowRight', { shiftKey: true }, 'selectForward'],
    ['Home', { shiftKey: true }, 'selectHome'],
    ['End', { shiftKey: true }, 'selectEnd'],
  ] as const)('%s %o → %s', (key, extra, action) => {
    expect(press(key, extra)).toBe(action);
  });

  it('leaves copy (Ctrl/Cmd+C) and a typed c to the browser and the field', () => {
    expect(press('c', { ctrlKey: true })).toBeNull();
    expect(press('c', { metaKey: true })).toBeNull();
    expect(press('c', { typing: true })).toBeNull();
    expect(press('i', { typing: true })).toBeNull();
    expect(press('o', { ctrlKey: true })).toBeNull();
    expect(reviewShortcuts('Ctrl')).toContainEqual([['C'], 'Add a chapter at the playhead (when a recipe ran)']);
  });
  it('leaves every key to a text field', () => {
    expect(press('j', { typing: true })).toBeNull();
    expect(press('z', { ctrlKey: true, typing: true })).toBeNull();
  });
  it('opens find from a text field too (the browser find cannot see the whole transcript)', () => {
    expect(press('f', { ctrlKey: true, typing: true })).toBe('find');
    expect(press('f', { typing: true })).toBeNull();
  });
  it('leaves Space and Enter to a focused control', () => {
    expect(press(' ', { onControl: true })).toBeNull();
    expect(press('Enter', { onControl: true })).toBeNull();
    expect(press('k', { onControl: true })).toBe('pause');
    expect(press('l', { onControl: true })).toBe('shuttleForward');
    expect(press('ArrowLeft', { onControl: true })).toBeNull();
  });
  it('ignores plain arrows (they scroll) and other chords', () => {
    expect(press('ArrowDown')).toBeNull();
    expect(press('j', { ctrlKey: true })).toBeNull();
    expect(press('L', { shiftKey: true })).toBeNull();
    expect(press('z', { ctrlKey: true, altKey: true })).toBeNull();
  });
});

describe('word selection keys', () => {
  it('moves the selection a word or to a paragraph end, each action its own step', () => {
    expect(SELECT_STEPS).toEqual({
      selectBack: 'back',
      selectForward: 'forward',
      selectHome: 'home',
      selectEnd: 'end',
    });
  });
  it('leaves Shift+arrows to a text field and to the player’s own controls', () => {
    expect(press('ArrowRight', { shiftKey: true, typing: true })).toBeNull();
    expect(press('ArrowLeft', { shiftKey: true, onControl: true })).toBeNull();
    expect(press('End', { shiftKey: true, onControl: true })).toBeNull();
  });
  it('keeps plain Home and End, and Ctrl+Shift+arrows, for the list and the browser', () => {
    expect(press('Home')).toBeNull();
    expect(press('End')).toBeNull();
    expect(press('ArrowRight', { shiftKey: true, ctrlKey: true })).toBeNull();
    expect(press('ArrowRight', { shiftKey: true, altKey: true })).toBeNull();
  });
  it('is in the shortcuts help, with B saying it adds either selection', () => {
    const help = reviewShortcuts('Ctrl');
    expect(help).toContainEqual([['Shift', '←/→'], 'Select words from the spoken one, a word at a time']);
    expect(help).toContainEqual([['Shift', 'Home/End'], 'Select to the start or end of the paragraph']);
    expect(help.find(([keys]) => keys.join() === 'B')?.[1]).toMatch(/Shift\+arrows/);
  });
});

describe('stepRate', () => {
  it('steps through the rates and stops at either end', () => {
    expect(stepRate(1, 1)).toBe(1.25);
    expect(stepRate(1, -1)).toBe(0.75);
    expect(stepRate(2, 1)).toBe(2);
    expect(stepRate(0.5, -1)).toBe(0.5);
    expect(stepRate(1.1, 1)).toBe(1.25);
    expect(stepRate(1.1, -1)).toBe(1);
    expect(RATES).toContain(1);
  });
});

describe('reviewShortcuts', () => {
  it('lists a key for every action the map answers', () => {
    const listed = reviewShortcuts('Ctrl').map(([, what]) => what.toLowerCase());
    for (const what of [
      'play',
      'backwards',
      'pause',
      'frame',
      'back',
      'forward',
      'slower',
      'larger',
      'full screen',
      'paragraph',
      'correct',
      'undo',
      'redo',
      'marker',
    ])
      expect(listed.some((l) => l.includes(what))).toBe(true);
  });
});
