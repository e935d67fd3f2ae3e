// Team mode's pure decisions: the share-relative identity and stream id, claim staleness judged
// by our own clock, and what a 409 on a shared file's upload leads to in the reducer.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { JobRecord } from '../../main/engine/job.js';
import { next } from '../../main/engine/reducer.js';
import {
  SHARED_ID_NAMESPACE,
  defaultTolerance,
  isClaimStale,
  normaliseSharePath,
  onConflict,
  refreshInterval,
  sharedIdName,
  sharedKey,
  sightClaim,
  uuidFromDigest,
} from '../../main/engine/shared-folder.js';
import { isUuid } from '../../main/service/ids.js';
import { WATCH_FOLDER } from '../../main/engine/settings.js';
import { ctx, failures, jobs, S1, stream, T0 } from './fixtures.js';

const idOf = (name: string): string =>
  uuidFromDigest(createHash('sha1').update(SHARED_ID_NAMESPACE).update(name).digest());

const input = {
  relPath: 'day1/interview.mp4',
  size: 1234,
  mtimeMs: 1_700_000_000_123,
  templateId: 'tpl',
  params: { language: 'en', diarization: true },
};

describe('share-relative identity', () => {
  it('a Mac, a Windows and a Linux path to the same file agree', () => {
    const nfd = 'Cafe\u0301/Ü.mp4'.normalize('NFD');
    expect(normaliseSharePath(nfd)).toBe('Caf\u00e9/Ü.mp4'.normalize('NFC'));
    expect(normaliseSharePath('day1\\interview.mp4')).toBe('day1/interview.mp4');
    expect(normaliseSharePath('./day1//interview.mp4')).toBe('day1/interview.mp4');
  });

  it('the key ignores parameter order and sub-second time, and changes with what matters', () => {
    const k = sharedKey(input);
    expect(sharedKey({ ...input, params: { diarization: true, language: 'en' } })).toBe(k);
    expect(sharedKey({ ...input, mtimeMs: 1_700_000_000_999 })).toBe(k);
    expect(sharedKey({ ...input, relPath: 'day1\\interview.mp4' })).toBe(k);
    expect(sharedKey({ ...input, size: 1235 })).not.toBe(k);
    expect(sharedKey({ ...input, mtimeMs: 1_700_000_001_000 })).not.toBe(k);
    expect(sharedKey({ ...input, templateId: 'other' })).not.toBe(k);
    expect(sharedKey({ ...input, params: { language: 'de', diarization: true } })).not.toBe(k);
    // With a content fingerprint the time no longer counts (a copy to the share may change it).
    const fp = sharedKey({ ...input, contentHash: 'fp1:abc' });
    expect(sharedKey({ ...input, contentHash: 'fp1:abc', mtimeMs: 5 })).toBe(fp);
  });

  it('the stream id is a version-5 UUID, the same for the same attempt, new for the next', () => {
    const key = sharedKey(input);
    const a0 = idOf(sharedIdName({ key, attempt: 0 }));
    expect(isUuid(a0)).toBe(true);
    expect(a0[14]).toBe('5');
    expect(['8', '9', 'a', 'b']).toContain(a0[19]);
    expect(idOf(sharedIdName({ key, attempt: 0 }))).toBe(a0);
    expect(idOf(sharedIdName({ key, attempt: 1 }))).not.toBe(a0);
    expect(() => uuidFromDigest(new Uint8Array(8))).toThrow(/16 bytes/);
  });
});

describe('claim staleness by our own clock', () => {
  const policy = { timeoutMs: 600_000, toleranceMs: 60_000 };

  it('a counter that keeps moving is never stale, one that stops is after timeout + tolerance', () => {
    let s = sightClaim(undefined, { token: 't', refreshCount: 1 }, T0);
    s = sightClaim(s, { token: 't', refreshCount: 2 }, T0 + 600_000);
    expect(isClaimStale(s, T0 + 1_200_000, policy)).toBe(false);
    s = sightClaim(s, { token: 't', refreshCount: 2 }, T0 + 1_200_000);
    expect(s.seenSince).toBe(T0 + 600_000);
    expect(isClaimStale(s, T0 + 1_259_999, policy)).toBe(false);
    expect(isClaimStale(s, T0 + 1_260_000, policy)).toBe(true);
  });

  it("the owner's clock plays no part: a new token restarts the count", () => {
    let s = sightClaim(undefined, { token: 't', refreshCount: 9 }, T0);
    s = sightClaim(s, { token: 'u', refreshCount: 9 }, T0 + 700_000);
    expect(isClaimStale(s, T0 + 700_000, policy)).toBe(false);
  });

  it('refresh and tolerance scale with short timeouts', () => {
    expect(refreshInterval(600_000)).toBe(30_000);
    expect(refreshInterval(15_000)).toBe(5_000);
    expect(defaultTolerance(600_000, 30_000)).toBe(60_000);
    expect(defaultTolerance(15_000, 5_000)).toBe(5_000);
  });
});

describe('a 409 on a shared file', () => {
  it('maps the stream state to a decision', () => {
    expect(onConflict('READY')).toBe('back-off');
    expect(onConflict('COMPLETED')).toBe('adopt');
    expect(onConflict('FAILED')).toBe('next-attempt');
    expect(onConflict('EXPIRED')).toBe('next-attempt');
  });

  const shared = { relPath: 'a.mp3', key: 'k', attempt: 0 };
  const uploading = (): JobRecord => ({ ...jobs.uploading(), shared });
  const after409 = (): JobRecord => {
    const t = next(uploading(), { type: 'uploadFailed', error: failures.conflict409 }, T0, ctx);
    expect(t.effects).toEqual([{ type: 'checkStream', streamId: S1 }]);
    expect(t.job.sharedConflict).toBe(true);
    return t.job;
  };

  it('READY: waits and looks again, never cancels the other computer’s stream', () => {
    const t = next(after409(), { type: 'reattachResult', found: true, stream: stream('READY') }, T0, ctx);
    expect(t.job.state).toBe('queued');
    expect(t.job.verifyStream).toBe(true);
    expect(t.job.sharedConflict).toBe(true);
    expect(t.effects.some((e) => e.type === 'cancelStream')).toBe(false);
    expect(t.effects.some((e) => e.type === 'scheduleRetry')).toBe(true);
  });

  it('COMPLETED: takes the stream and exports it', () => {
    const t = next(after409(), { type: 'reattachResult', found: true, stream: stream('COMPLETED') }, T0, ctx);
    expect(t.job.state).toBe('exporting');
    expect(t.job.uploadConfirmed).toBe(true);
    expect(t.job.sharedConflict).toBeUndefined();
    expect(t.effects).toEqual([{ type: 'exportNow', streamId: S1 }]);
  });

  it('FAILED: the next attempt, with the id left for the queue to derive', () => {
    const t = next(after409(), { type: 'reattachResult', found: true, stream: stream('FAILED') }, T0, ctx);
    expect(t.job.state).toBe('queued');
    expect(t.job.streamId).toBeUndefined();
    expect(t.job.shared?.attempt).toBe(1);
    expect(t.job.previousStreamIds).toEqual([]);
  });

  it('a file that is not shared keeps the old rule: a READY stream of unknown outcome is canceled', () => {
    const j = next(jobs.uploading(), { type: 'uploadFailed', error: failures.conflict409 }, T0, ctx).job;
    expect(j.sharedConflict).toBeUndefined();
    const t = next(j, { type: 'reattachResult', found: true, stream: stream('READY') }, T0, ctx);
    expect(t.effects).toEqual([{ type: 'cancelStream', streamId: S1 }]);
  });

  it('handed over: the job ends without canceling the stream; an unshared job ignores it', () => {
    const t = next(uploading(), { type: 'handedOver', host: 'EDIT-BAY-2' }, T0, ctx);
    expect(t.job.state).toBe('canceled');
    expect(t.job.error?.message).toMatch(/EDIT-BAY-2/);
    expect(t.effects).toEqual([{ type: 'abortUpload', streamId: S1 }]);
    // History names the computer that took the file over; one whose claim could not be read, nobody.
    expect(t.job.processedBy).toBe('EDIT-BAY-2');
    const unknown = next({ ...uploading(), processedBy: 'HERE' }, { type: 'handedOver' }, T0, ctx).job;
    expect(unknown.processedBy).toBe('HERE');
    expect(unknown.error?.message).toMatch(/another computer/);
    expect(next(jobs.uploading(), { type: 'handedOver', host: 'x' }, T0, ctx).job.state).toBe('uploading');
  });

  it('a retry of a failed shared job asks under the next id', () => {
    const failed: JobRecord = { ...jobs.uploading(), state: 'failed', shared };
    const t = next(failed, { type: 'retryRequested' }, T0, ctx);
    expect(t.job.state).toBe('queued');
    expect(t.job.shared?.attempt).toBe(1);
  });
});

describe('the folder setting', () => {
  it('is off by default; the claim timeout takes whole seconds from 5 to a day', () => {
    const f = WATCH_FOLDER.parse({ id: 'f', path: '/share' });
    expect(f.shared).toBeUndefined();
    expect(WATCH_FOLDER.parse({ id: 'f', path: '/share', shared: true, claimTimeoutS: 15 }).claimTimeoutS).toBe(15);
    for (const bad of [4, 86_401, 1.5]) {
      expect(WATCH_FOLDER.safeParse({ id: 'f', path: '/share', claimTimeoutS: bad }).success).toBe(false);
    }
  });
});
