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

/** A pause the editor chose, kept until they resume (beside the settings, never part of them). */
export interface HeldPause {
  /** When it was chosen (ISO 8601). */
  since: string;
}

export class SettingsStore {
  private readonly conf: Conf<{ settings: unknown; userPause?: unknown }>;
  private cached: Settings;

  constructor(stateDir: string) {
    this.conf = new Conf<{ settings: unknown; userPause?: unknown }>({
      cwd: stateDir,
      configName: 'settings',
      projectName: 'sluice',
      configFileMode: PRIVATE_FILE_MODE,
    });
    const raw = this.conf.get('settings') ?? {};
    const parsed = SETTINGS.safeParse(raw);
    if (parsed.success) {
      this.cached = parsed.data;
      return;
    }
    // A file damaged by hand, or a value an older version accepted and this one refuses (a name
    // pattern leading out of the results folder): each refused value goes back to its default and
    // the rest is kept; only what cannot be mended falls back to defaults. The file as it was is
    // kept aside either way, and is rewritten only by the next save.
    this.conf.set('settingsDamaged', raw);
    this.cached = mended(raw) ?? defaultSettings();
  }

  get(): Settings {
    return structuredClone(this.cached);
  }

  /**
   * The settings as saved, shared rather than copied: for readers asked once per file (a watch
   * folder's 100,000 files each cloned the whole settings twice). Never changed in place: a save
   * replaces the object, so a reader holding it keeps a consistent, if older, view.
   */
  current(): Readonly<Settings> {
    return this.cached;
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

  /**
   * The editor's own pause, if one was chosen and not yet resumed. It sits beside the settings
   * rather than in them, so a Settings save made from an older view never lifts it.
   */
  heldPause(): HeldPause | undefined {
    const raw = this.conf.get('userPause');
    if (typeof raw !== 'object' || raw === null) return undefined;
    const since = (raw as { since?: unknown }).since;
    return { since: typeof since === 'string' ? since : new Date(0).toISOString() };
  }

  /** Keeps (a value) or lifts (undefined) the editor's pause; a state folder that refuses the write keeps it for this run only. */
  holdPause(held: HeldPause | undefined): void {
    try {
      if (held) this.conf.set('userPause', held);
      else this.conf.delete('userPause');
    } catch {
      // A full disk: the pause still holds in this run; the storage guard reports the disk itself.
    }
  }
}

/** The settings with each refused value removed (its default applies), or undefined when that is not enough. */
function mended(raw: unknown): Settings | undefined {
  const candidate: unknown = structuredClone(raw);
  for (let round = 0; round < 20; round++) {
    const parsed = SETTINGS.safeParse(candidate);
    if (parsed.success) return parsed.data;
    let removed = false;
    for (const issue of parsed.error.issues) removed = removeAt(candidate, issue.path) || removed;
    if (!removed) return undefined;
  }
  return undefined;
}

function removeAt(root: unknown, at: readonly PropertyKey[]): boolean {
  if (at.length === 0) return false;
  let node = root;
  for (const key of at.slice(0, -1)) {
    if (typeof node !== 'object' || node === null) return false;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  const last = at[at.length - 1]!;
  if (typeof node !== 'object' || node === null || !(last in node)) return false;
  if (Array.isArray(node) && typeof last === 'number') node.splice(last, 1);
  else delete (node as Record<PropertyKey, unknown>)[last];
  return true;
}
