// Which transcript shows over which screen, and where a transcript was left: the review belongs to
// the screen it was opened over, is put aside on another and shows again on coming back; a place
// kept wins over the start of the file, a search hit's own moment over a place kept before it.
import './browser-globals.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { app } from '../../../renderer/src/lib/state/app.svelte.js';
import { reviewRequest, type ReviewPlace } from '../../../renderer/src/lib/state/review-request.svelte.js';

const place = (timeMs: number, paragraph = 3): ReviewPlace => ({
  timeMs,
  paragraph,
  offset: 12,
  following: false,
  rate: 1,
});

beforeEach(() => {
  reviewRequest.close();
  app.navigate('queue');
});

describe('review request', () => {
  it('shows the transcript over the screen it was opened on, and again after another screen', () => {
    reviewRequest.open('job-1');
    expect(reviewRequest.current).toEqual({ jobId: 'job-1' });
    app.navigate('usage');
    expect(reviewRequest.current).toBeNull();
    expect(reviewRequest.openOver).toBe('queue');
    app.navigate('queue');
    expect(reviewRequest.current).toEqual({ jobId: 'job-1' });
    reviewRequest.close();
    expect([reviewRequest.current, reviewRequest.openOver]).toEqual([null, null]);
  });

  it('opened over History, it stays there while the Queue shows', () => {
    app.navigate('history');
    reviewRequest.open('job-2', 4000);
    app.navigate('queue');
    expect(reviewRequest.current).toBeNull();
    app.navigate('history');
    expect(reviewRequest.current).toEqual({ jobId: 'job-2', atMs: 4000 });
  });

  it('starts a transcript where it was left, and a search hit at its own moment until it is left', () => {
    reviewRequest.open('job-3');
    const first = reviewRequest.current!;
    expect(reviewRequest.placeFor(first)).toBeUndefined();
    reviewRequest.remember(first, place(21_500));
    // Opened again from its button (no moment of its own): where it was left.
    reviewRequest.open('job-3');
    expect(reviewRequest.placeFor(reviewRequest.current!)).toEqual(place(21_500));
    // A search hit asks for 0:40: that, not the old place...
    reviewRequest.open('job-3', 40_000);
    const hit = reviewRequest.current!;
    expect(reviewRequest.placeFor(hit)).toBeUndefined();
    // ...until the editor leaves it somewhere: coming back to that same request finds that place.
    reviewRequest.remember(hit, place(44_000, 7));
    expect(reviewRequest.placeFor(hit)).toEqual(place(44_000, 7));
    expect(reviewRequest.placeFor({ jobId: 'job-4' })).toBeUndefined();
  });

  it('keeps the player’s size from one transcript to the next', () => {
    expect(reviewRequest.playerSize).toBe('normal');
    reviewRequest.setPlayerSize('large');
    reviewRequest.open('job-5');
    reviewRequest.close();
    reviewRequest.open('job-6');
    expect(reviewRequest.playerSize).toBe('large');
  });
});
