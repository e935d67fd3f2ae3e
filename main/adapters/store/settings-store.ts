// Settings on disk through conf (what electron-store wraps; usable without Electron). Every write
// is validated as a whole first, so a bad field never leaves the file half-updated.
import Conf from 'conf';
import { PRIVATE_FILE_MODE } from './private-files.js';
import { SETTINGS, type Settings, defaultSettings, describeIssues } from '../../engine/settings.js';

export class SettingsValidationError extends Error {
  constructor(readonly issues: string[]) {
    super(`Settings not saved: ${issues.join('; ')}`);
    this.name = 'SettingsValidationError';
  }
}

export class SettingsStore {
  private readonly conf: Conf<{ settings: unknown }>;
  private cached: Settings;

  constructor(stateDir: string) {
    this.conf = new Conf<{ settings: unknown }>({
      cwd: stateDir,
      configName: 'settings',
      projectName: 'sluice',
      configFileMode: PRIVATE_FILE_MODE,
    });
    const parsed = SETTINGS.safeParse(this.conf.get('settings') ?? {});
    // A file damaged by hand falls back to defaults rather than refusing to start; it is kept aside.
    if (!parsed.success) {
      this.conf.set('settingsDamaged', this.conf.get('settings'));
      this.cached = defaultSettings();
    } else this.cached = parsed.data;
  }

  get(): Settings {
    return structuredClone(this.cached);
  }

  /** Replaces the settings after validating the whole object; throws SettingsValidationError. */
  set(next: unknown): Settings {
    const parsed = SETTINGS.safeParse(next);
    if (!parsed.success) throw new SettingsValidationError(describeIssues(parsed.error));
    this.conf.set('settings', parsed.data);
    this.cached = parsed.data;
    return this.get();
  }

  update(change: (s: Settings) => Settings): Settings {
    return this.set(change(this.get()));
  }

  get path(): string {
    return this.conf.path;
  }
}
