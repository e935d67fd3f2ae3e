// Notifications are batched, and the tray's summary of the queue.
import { describe, expect, it } from 'vitest';
import type { JobView, QueueStats } from '../../preload/contract.js';
import { NoticeBatcher } from '../../main/electron/notice-batcher.js';
import { trayStatus } from '../../main/electron/tray-status.js';

const job = (id: string, state: JobView['state']): JobView => ({ id, fileName: `${id}.wav`, state }) as JobView;

describe('notifications', () => {
  it('one notice per batch of completions and one per burst of failures', () => {
    const b = new NoticeBatcher(1000);
    for (let i = 0; i < 10; i++) b.observe(job(`j${i}`, 'processing'), 0);
    for (let i = 0; i < 8; i++) b.observe(job(`j${i}`, 'completed'), 100 + i);
    b.observe(job('j8', 'failed'), 200);
    b.observe(job('j9', 'failed'), 210);
    expect(b.take(500)).toEqual([]);
    const notes = b.take(1300);
    expect(notes.map((n) => [n.kind, n.title])).toEqual([
      ['completed', '8 files finished'],
      ['failed', '2 files failed'],
    ]);
    expect(notes[0]?.jobId).toBe('j0');
    expect(b.take(5000)).toEqual([]);
  });

  it('stays quiet about jobs first seen already finished (a snapshot)', () => {
    const b = new NoticeBatcher(0);
    b.observe(job('old', 'completed'), 0);
    expect(b.take(10)).toEqual([]);
  });
});

describe('tray status', () => {
  const counts = {
    queued: 0,
    uploading: 0,
    processing: 0,
    exporting: 0,
    completed: 0,
    failed: 0,
    canceled: 0,
    expired: 0,
  };
  const stats = (over: Partial<QueueStats> & { c?: Partial<typeof counts> }): QueueStats => ({
    counts: { ...counts, ...over.c },
    batch: {
      id: 1,
      done: 0,
      completed: 0,
      failed: 0,
      canceled: 0,
      total: 0,
      startedAt: 0,
      throughput: 0,
      estimate: 'done',
      pace: 0.5,
      paceLearned: false,
    },
    offline: false,
    stoppingAfterCurrent: false,
    ...(over.pause ? { pause: over.pause } : {}),
    ...(over.offline ? { offline: over.offline } : {}),
  });
  it('says idle, processing N, paused, or needs attention', () => {
    expect(trayStatus(stats({})).status).toBe('idle');
    expect(trayStatus(stats({ c: { queued: 2, uploading: 1 } }))).toEqual({
      status: 'processing',
      label: 'Processing 3',
    });
    expect(trayStatus(stats({ pause: { reason: 'user', message: 'Paused by you.' } })).status).toBe('paused');
    expect(trayStatus(stats({ pause: { reason: 'credentials', message: 'Key refused.' } })).status).toBe('attention');
    expect(trayStatus(stats({ pause: { reason: 'storage', message: 'The disk is full.' } })).status).toBe('attention');
    expect(trayStatus(stats({ c: { failed: 2 } })).status).toBe('attention');
  });
});
