// What a shared folder's records say: the claim a computer holds on a file (`owner.json`), the
// record a done file leaves (`.sluice/done/`), and what taking a file answers. Written by
// claim-store.ts, read by the sweep and the rename rules too.

export interface ClaimOwner {
  host: string;
  /** This running Sluice (a state folder's instance); a restart gets a new one. */
  instance: string;
  /**
   * The state folder's own tag, the same across restarts: what a killed or failed write of this
   * computer left is known as its own and swept at once (claim-sweep.ts). Absent: the instance.
   */
  writer?: string;
}

export interface ClaimRecord extends ClaimOwner {
  token: string;
  relPath: string;
  key: string;
  attempt: number;
  streamId?: string;
  refreshCount: number;
  /** The owner's wall clock, for people reading the file; never used to judge staleness. */
  refreshedAt: string;
}

export interface DoneRecord {
  relPath: string;
  key: string;
  /** Size and modification second of the file done: a computer hashing differently still recognises it. */
  size?: number;
  mtimeS?: number;
  host: string;
  state: string;
  streamId?: string;
  /** The file's content identity (fingerprint or SHA-256), when the computer that did it read one. */
  contentHash?: string;
  at: string;
}

export type TakeResult =
  | { kind: 'taken'; token: string; attempt: number; tookOver?: string }
  | { kind: 'held'; host: string }
  | { kind: 'done'; record: DoneRecord };
