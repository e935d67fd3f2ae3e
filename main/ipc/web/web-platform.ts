// The PlatformPort of `sluice serve`: no native dialogs (the browser drops files and the user types
// folder paths), files opened with the desktop's handler on the machine the server runs on.
import type { PlatformPort, SecretVault } from '../platform.js';
import { openWithSystem } from './system-open.js';

export function webPlatform(opts: { version: string; secrets: SecretVault }): PlatformPort {
  return {
    kind: 'web',
    version: opts.version,
    secrets: opts.secrets,
    openPath: (p) => openWithSystem(p),
    revealPath: (p) => openWithSystem(p, { reveal: true }),
  };
}
