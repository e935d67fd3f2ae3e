// Which failures take the whole queue offline, which pauses end a batch being waited for, and the
// words each pause shows.
import { describe, expect, it } from 'vitest';
import { needsPerson } from '../../main/engine/batch.js';
import { failureEffect, pauseMessage } from '../../main/engine/pause.js';

describe('failureEffect', () => {
  it('a network failure or a timeout takes the queue offline, saying why', () => {
    expect(failureEffect({ kind: 'network', message: 'ECONNREFUSED' })?.offline).toMatch(
      /cannot be reached \(ECONNREFUSED\).*resumes by itself/,
    );
    expect(failureEffect({ kind: 'timeout', message: 'timed out' })).toBeDefined();
  });

  it('an answer from the service (any status) or an aborted call does not', () => {
    expect(failureEffect({ kind: 'http', message: '500' })).toBeUndefined();
    expect(failureEffect({ kind: 'aborted', message: 'aborted' })).toBeUndefined();
    expect(failureEffect({ kind: 'input', message: 'bad' })).toBeUndefined();
  });
});

describe('pauseMessage', () => {
  it('says what to do for credentials, and that uploads wait for the usage limit', () => {
    expect(pauseMessage('credentials', '401')).toMatch(/Check the API key in Settings/);
    expect(pauseMessage('usage-limit', 'quota')).toMatch(/New uploads wait/);
  });
});

describe('needsPerson', () => {
  it('credentials, the spending cap and an open-ended limit end a batch; the rest pass', () => {
    expect(needsPerson({ reason: 'credentials' })).toBe(true);
    expect(needsPerson({ reason: 'spending-cap' })).toBe(true);
    expect(needsPerson({ reason: 'usage-limit' })).toBe(true);
    expect(needsPerson({ reason: 'usage-limit', until: 1 })).toBe(false);
    expect(needsPerson({ reason: 'user' })).toBe(false);
    expect(needsPerson({ reason: 'offline' })).toBe(false);
    expect(needsPerson({ reason: 'storage' })).toBe(false);
  });
});
