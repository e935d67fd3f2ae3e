// Team mode (a watch folder shared by several computers): the pure decisions. Which stream id a
// file gets, when a claim on the share counts as abandoned, and what a 409 on upload means.
//
// GAP (service): the contract (§4.5, §15.2) says a reused stream id is answered 409
// GENERAL_CONFLICT_ERROR. The status is published; its meaning "duplicate id" and that it comes
// before the body is read are the sandbox's CHOICE. The real gateway may answer later (after a
// whole wasted upload) or scope ids differently. The claims on the share are therefore the first
// line of defence; the deterministic id is the fencing token for when the file system lies.
import type { StreamState } from '../service/types.js';
import type { Params } from './settings.js';

/** What a shared job carries: the identity every computer derives alike, and the attempt number. */
export interface SharedIdentity {
  /** Path relative to the watch folder's root, '/'-separated, NFC (the same on Mac, Windows, Linux). */
  relPath: string;
  /** Canonical text of the file's identity, template and parameters, without the attempt. */
  key: string;
  /** 0 for the first stream; raised each time the service ended a stream for this file without results. */
  attempt: number;
  /** The token of this computer's claim (adapters/claims), so a restart can tell whether it still holds it. */
  token?: string;
}

/**
 * The share-relative path: separators of any platform become '/', `.` and empty parts go, and the
 * name is NFC (macOS hands out NFD names for the same file that Windows and Linux see as NFC).
 */
export function normaliseSharePath(relative: string): string {
  return relative
    .split(/[\\/]+/)
    .filter((p) => p !== '' && p !== '.')
    .map((p) => p.normalize('NFC'))
    .join('/');
}

export interface SharedKeyInput {
  relPath: string;
  size: number;
  mtimeMs: number;
  /** The content fingerprint when the queue computes one: preferred to the time, which copies can change. */
  contentHash?: string;
  templateId: string;
  params: Params;
}

/**
 * Canonical text of what makes "the same work" on every computer. The modification time counts in
 * whole seconds: SMB reports 100 ns, NFS ns, FAT 2 s, and clients round differently.
 */
export function sharedKey(i: SharedKeyInput): string {
  const what = i.contentHash ? `fp:${i.contentHash}` : `mtime:${Math.floor(i.mtimeMs / 1000)}`;
  const params = Object.keys(i.params)
    .sort()
    .map((k) => [k, i.params[k]]);
  return JSON.stringify(['sluice-shared-1', normaliseSharePath(i.relPath), i.size, what, i.templateId, params]);
}

/** The text hashed into the stream id of one attempt. */
export function sharedIdName(s: Pick<SharedIdentity, 'key' | 'attempt'>): string {
  return `${s.key}#${s.attempt}`;
}

/**
 * A name-based UUID (RFC 9562 version 5 layout) from the SHA-1 of the namespace and name. The
 * digest is computed by the caller (the engine does no hashing I/O-free libraries could not).
 */
export function uuidFromDigest(digest: Uint8Array): string {
  if (digest.length < 16) throw new Error('A stream id needs a digest of at least 16 bytes.');
  const b = Array.from(digest.subarray(0, 16));
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The namespace of Sluice's shared stream ids (a fixed random UUID, bytes for hashing). */
export const SHARED_ID_NAMESPACE = '2f1d7c1e-8a64-4c3b-9f0e-5b7a2d9c6e41';

// ---- claims ------------------------------------------------------------------------------------

/**
 * What one computer has seen of another's claim. Staleness is judged by this computer's own clock
 * between two reads of the claim's refresh counter, never by comparing the owner's wall clock with
 * ours: clocks on a team's machines can be minutes apart, and an NFS attribute cache can show an
 * old mtime for up to a minute. A counter that has not moved for the whole timeout, by our clock,
 * means the owner stopped refreshing.
 */
export interface ClaimSighting {
  token: string;
  refreshCount: number;
  /** Our clock when we first saw this token at this count. */
  seenSince: number;
}

export interface ClaimRead {
  token: string;
  refreshCount: number;
}

/** Folds a fresh read of a claim into what we saw of it before. */
export function sightClaim(prev: ClaimSighting | undefined, read: ClaimRead, now: number): ClaimSighting {
  if (prev && prev.token === read.token && prev.refreshCount === read.refreshCount) return prev;
  return { token: read.token, refreshCount: read.refreshCount, seenSince: now };
}

export interface StalePolicy {
  timeoutMs: number;
  /**
   * Extra margin on top of the timeout for attribute caches and a slow owner (the owner refreshes
   * every `refreshMs`; a refresh may take a while to become visible on the share).
   */
  toleranceMs: number;
}

/** A claim whose refresh counter has not moved for the timeout plus the tolerance, by our clock. */
export function isClaimStale(s: ClaimSighting, now: number, p: StalePolicy): boolean {
  return now - s.seenSince >= p.timeoutMs + p.toleranceMs;
}

/** The tolerance used unless told: caches (NFS acregmax is 60 s) and a late refresh. */
export function defaultTolerance(timeoutMs: number, refreshMs: number): number {
  return Math.min(60_000, Math.max(refreshMs, Math.round(timeoutMs / 10)));
}

/** How often an owner refreshes: every 30 s, or a third of a short timeout (tests, small teams). */
export function refreshInterval(timeoutMs: number, configuredMs = 30_000): number {
  return Math.max(250, Math.min(configuredMs, Math.floor(timeoutMs / 3)));
}

// ---- the service as the arbiter ----------------------------------------------------------------

export type ConflictDecision =
  /** Another computer's stream is running: wait and look again. */
  | 'back-off'
  /** The stream is done: take its results (export is free and gives the same bytes). */
  | 'adopt'
  /** The service ended that stream without results: the next attempt, under the next id. */
  | 'next-attempt';

/** What a 409 on upload means for a shared file, given the state of the stream under that id. */
export function onConflict(state: StreamState): ConflictDecision {
  switch (state) {
    case 'READY':
      return 'back-off';
    case 'COMPLETED':
      return 'adopt';
    case 'FAILED':
    case 'EXPIRED':
      return 'next-attempt';
  }
}

/**
 * A computer's name as History compares it: ASCII letter case ignored, since host names are not
 * case-sensitive ("edit-bay-2" is EDIT-BAY-2), exactly the letters SQLite's NOCASE folds.
 */
export const computerKey = (name: string): string => name.replace(/[A-Z]/g, (c) => c.toLowerCase());
