// How a runtime is opened: the state folder, the connection, and this run's overrides.
import type { Credentials } from '../api/auth.js';
import type { SandboxOptions } from '../sandbox/index.js';
import type { ConnectionOverrides } from '../adapters/queue/connection.js';
import type { FsyncMode } from '../adapters/store/journal/job-store.js';
import type { SecretStore } from '../adapters/store/secrets/keychain.js';
import type { EngineContext } from '../engine/reducer.js';

export interface RuntimeOptions {
  stateDir: string;
  connection?: ConnectionOverrides;
  credentials?: Credentials;
  secrets?: SecretStore;
  sandboxOptions?: SandboxOptions;
  /** Overrides of the saved settings for this run only (CLI flags). */
  concurrency?: number;
  ctx?: Partial<EngineContext>;
  fsync?: FsyncMode;
  env?: NodeJS.ProcessEnv;
  /** false: watch folders by periodic rescans only (tests). */
  watchEvents?: boolean;
  /**
   * 'pause': with no credentials for the configured service, open anyway with the queue paused for
   * credentials (the desktop app, whose Settings screen is where the key is entered). Default: throw.
   */
  missingCredentials?: 'throw' | 'pause';
  /** Team mode: how often claims are refreshed (default 30 s, or a third of a short claim timeout). */
  claimRefreshMs?: number;
  /**
   * 'ignore': a pause the editor chose in an earlier run does not hold in this one (`sluice process`
   * runs the files it was given); it stays kept for the next. Default 'keep'.
   */
  heldPause?: 'keep' | 'ignore';
  /** Team mode: the name this computer goes by on a shared folder (default: its host name). */
  computerName?: string;
  /** How often a watch folder that went away is looked for (default 3 s for the watcher, 1 s for its jobs). */
  folderPollMs?: number;
  /** Team mode: the clock claims are judged by (tests advance it; default Date.now). */
  claimClock?: () => number;
  /** The clock watch folders judge files by: settle times, a file not whole for long (tests advance it; default Date.now). */
  watchClock?: () => number;
}
