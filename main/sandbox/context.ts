// What every route of the sandbox shares. Built once by startSandbox (index.ts).
import type { Credentials, TokenStore } from './auth.js';
import type { FaultState } from './faults.js';
import type { LinkFetchOptions } from './link-fetch.js';
import type { SandboxProfile } from './profile.js';
import type { UsageRecordDto } from '../service/types.js';
import type { StreamStore } from './stream-store.js';

export interface SandboxContext {
  store: StreamStore;
  faults: FaultState;
  tokens: TokenStore;
  creds: Credentials;
  dataDir: string;
  /** Keep `<streamId>.bin` after probing (only when the caller chose dataDir, to inspect the bytes). */
  keepBodies: boolean;
  allowLocalWebhooks: boolean;
  maxConcurrentStreams: number | null;
  stats: Map<string, number>;
  now: () => number;
  /** The realistic profile (profile.ts), or null for the default one. */
  profile: SandboxProfile | null;
  /** Every usage record to report at `now`: this run's streams, and an earlier run's when kept (usage-ledger.ts). */
  usage: (now: number) => UsageRecordDto[];
  /** How link bodies are fetched (link-fetch.ts). */
  linkFetch: LinkFetchOptions;
}

/** Route config: `operation` names the request in stats() and fault selectors. */
export interface RouteConfig {
  operation: string;
  /** No credentials needed (none so far besides the token endpoint). */
  public?: boolean;
  /** Admin routes are never hit by injected faults. */
  admin?: boolean;
}

export const rawQuery = (url: string): URLSearchParams => {
  const i = url.indexOf('?');
  return new URLSearchParams(i < 0 ? '' : url.slice(i + 1));
};
