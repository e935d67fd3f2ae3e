// J/K/L over a media element: the speeds each key gives, the rate chosen before given back by K,
// reverse played by seeking back in real time, and frame nudges.
import './browser-globals.js';
import { describe, expect, it } from 'vitest';
import {
  nextMotion,
  nudgeSeconds,
  Shuttle,
  type ShuttleMedia,
} from '../../../renderer/src/lib/state/shuttle.svelte.js';

/** An element as far as the shuttle sees one: play/pause fire their events, seeks land at once. */
class FakeMedia extends EventTarget implements ShuttleMedia {
  currentTime = 0;
  playbackRate = 1;
  paused = true;
  seeking = false;
  duration = 60;
  play(): Promise<void> {
    this.paused = false;
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  }
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.dispatchEvent(new Event('pause'));
  }
}

const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('nextMotion', () => {
  it('doubles up to 4× the same way and starts at 1× the other way', () => {
    const stopped = { direction: 'stopped', speed: 1 } as const;
    const l1 = nextMotion(stopped, 'forward');
    const l2 = nextMotion(l1, 'forward');
    const l3 = nextMotion(l2, 'forward');
    expect([l1, l2, l3, nextMotion(l3, 'forward')].map((m) => m.speed)).toEqual([1, 2, 4, 4]);
    expect(nextMotion(l3, 'reverse')).toEqual({ direction: 'reverse', speed: 1 });
    expect(nextMotion(nextMotion(stopped, 'reverse'), 'reverse')).toEqual({ direction: 'reverse', speed: 2 });
  });
});

describe('nudgeSeconds', () => {
  it('is one frame of the timeline, else a 25 fps frame for video and 0.1 s for audio', () => {
    expect(nudgeSeconds('video', { num: 24000, den: 1001 })).toBeCloseTo(1001 / 24000, 9);
    expect(nudgeSeconds('video')).toBeCloseTo(0.04, 9);
    expect(nudgeSeconds('audio')).toBeCloseTo(0.1, 9);
  });
});

describe('Shuttle', () => {
  it('L plays at 1×, 2×, 4×; K pauses and gives back the rate chosen before', () => {
    const m = new FakeMedia();
    m.playbackRate = 0.75;
    const s = new Shuttle();
    s.attach(m);
    s.press('forward');
    expect([m.paused, m.playbackRate, s.direction]).toEqual([false, 1, 'forward']);
    s.press('forward');
    expect(m.playbackRate).toBe(2);
    s.press('forward');
    s.press('forward');
    expect(m.playbackRate).toBe(4);
    s.pause();
    expect([m.paused, m.playbackRate, s.direction, s.speed]).toEqual([true, 0.75, 'stopped', 1]);
  });

  it('L while already playing (Space) goes to 2×, and a pause on the controls ends the shuttle', async () => {
    const m = new FakeMedia();
    const s = new Shuttle();
    s.attach(m);
    await m.play();
    s.press('forward');
    expect(m.playbackRate).toBe(2);
    m.pause();
    expect([s.direction, m.playbackRate]).toEqual(['stopped', 1]);
  });

  it('J runs the playhead backwards in real time, faster with each J, and stops at the start', async () => {
    const m = new FakeMedia();
    m.currentTime = 30;
    let clock = 0;
    const s = new Shuttle(() => clock);
    s.attach(m);
    s.press('reverse');
    expect(m.paused).toBe(true);
    clock = 1000;
    await wait(60);
    expect(m.currentTime).toBeCloseTo(29, 6);
    s.press('reverse');
    expect(s.speed).toBe(2);
    clock = 2000;
    await wait(60);
    expect(m.currentTime).toBeCloseTo(27, 6);
    // No second seek while one is landing.
    m.seeking = true;
    clock = 3000;
    await wait(60);
    expect(m.currentTime).toBeCloseTo(27, 6);
    m.seeking = false;
    clock = 20_000;
    await wait(60);
    expect([m.currentTime, s.direction]).toEqual([0, 'stopped']);
  });

  it('play pressed while running backwards stops the reverse; K stops it too', async () => {
    const m = new FakeMedia();
    m.currentTime = 10;
    let clock = 0;
    const s = new Shuttle(() => clock);
    s.attach(m);
    s.press('reverse');
    await m.play();
    expect(s.direction).toBe('stopped');
    clock = 5000;
    await wait(60);
    expect(m.currentTime).toBe(10);
    m.pause();
    s.press('reverse');
    s.pause();
    clock = 9000;
    await wait(60);
    expect(m.currentTime).toBe(10);
  });

  it('nudges stop playback and step within the media', () => {
    const m = new FakeMedia();
    m.currentTime = 0.02;
    const s = new Shuttle();
    s.attach(m);
    s.press('forward');
    s.nudge(-0.04);
    expect([m.paused, m.currentTime]).toEqual([true, 0]);
    s.nudge(0.04);
    expect(m.currentTime).toBeCloseTo(0.04, 9);
    m.currentTime = 59.99;
    s.nudge(0.04);
    expect(m.currentTime).toBe(60);
  });
});
