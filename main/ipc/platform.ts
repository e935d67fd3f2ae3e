// What the handlers need from the shell they run in: native dialogs, opening files, start at login,
// the secret store. Electron implements it with its own modules (main/electron/platform.ts); the
// web bridge with what a loopback server can do (main/ipc/web-platform.ts). Handlers stay the same.
import type { Platform } from '../../preload/contract.js';
import type { SecretVault } from '../adapters/store/secrets/secret-vault.js';

export type { SecretStatus, SecretVault } from '../adapters/store/secrets/secret-vault.js';

export interface PlatformPort {
  readonly kind: Platform;
  readonly version: string;
  readonly secrets: SecretVault;
  /** undefined: this platform has no native file dialog (the browser drops files instead). */
  pickFiles?(): Promise<{ canceled: boolean; paths: string[] }>;
  pickFolder?(): Promise<{ canceled: boolean; path?: string }>;
  /** Opens a file with its default application. Throws with an actionable message when it cannot. */
  openPath(p: string): Promise<void>;
  /** Shows the file in the system's file manager. */
  revealPath(p: string): Promise<void>;
  startAtLogin?: { get(): boolean; set(enabled: boolean): void };
  /** The URL the review view's player loads a job's source from (range requests); absent: no player. */
  mediaUrl?(jobId: string): string;
  /** The renderer finished loading and subscribed (Electron's handshake); a no-op elsewhere. */
  rendererReady?(): void;
}
