// Settings on disk through conf (what electron-store wraps; usable without Electron). Every write
// is validated as a whole first, so a bad field never leaves the file half-updated.
import { readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import Conf from 'conf';
import { PRIVATE_FILE_MODE } from '../private-files.js';
import { SETTINGS, type Settings, defaultSettings, describeIssues } from '../../../engine/settings.js';

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

/** A settings file that did not parse, moved aside so Sluice could start on the defaults. */
export interface SettingsSetAside {
  /** The settings file, now written afresh. */
  file: string;
  /** Where the damaged file went: `settings.json.damaged-<time>` beside it. */
  keptAs: string;
  /** What was wrong, in words; never the file's bytes. */
  reason: string;
}

export class SettingsStore {
  /** Set when the settings file did not parse at start and was moved aside. */
  readonly setAside: SettingsSetAside | undefined;

  private readonly conf: Conf<{ settings: unknown; userPause?: unknown }>;
  private cached: Settings;

  /**
   * `damaged`: 'set-aside' (whoever holds the state folder: the app, `process`, `watch`, `serve`)
   * renames a settings file that does not parse and starts on defaults; 'ignore' (commands that
   * run beside them without the state lock) reads defaults and leaves the file alone.
   */
  constructor(stateDir: string, opts: { damaged?: 'set-aside' | 'ignore'; now?: () => number } = {}) {
    const ignore = opts.damaged === 'ignore';
    this.setAside = ignore ? undefined : setAsideUnreadable(path.join(stateDir, 'settings.json'), opts.now ?? Date.now);
    this.conf = new Conf<{ settings: unknown; userPause?: unknown }>({
      cwd: stateDir,
      configName: 'settings',
      projectName: 'sluice',
      configFileMode: PRIVATE_FILE_MODE,
      clearInvalidConfig: ignore,
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
    let raw: unknown;
    try {
      raw = this.conf.get('userPause');
    } catch {
      // The file damaged while Sluice runs (conf reads it on every get): no pause can be read from it.
      return undefined;
    }
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

/** What the app and the CLI say when the settings file was set aside: both files named. */
export function setAsideNotice(a: SettingsSetAside): string {
  return `The settings file ${a.file} could not be read (${a.reason}). It was kept as ${a.keptAs}, and Sluice started on the default settings: set them again in Settings (the API key in the keychain is not affected).`;
}

/**
 * A settings file that is not JSON at all (cut mid-write, overwritten with binary, emptied) is
 * renamed aside rather than stopping every start: the person keeps it to copy from, and Sluice runs
 * on defaults. A file that parses but holds refused values is mended in place instead (below).
 */
function setAsideUnreadable(file: string, now: () => number): SettingsSetAside | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const reason = unreadableReason(bytes);
  if (reason === undefined) return undefined;
  const keptAs = `${file}.damaged-${new Date(now()).toISOString().replace(/[:.]/g, '-')}`;
  renameSync(file, keptAs);
  return { file, keptAs, reason };
}

/** Why the bytes are not a settings file, or undefined when they parse (as conf reads them: UTF-8). */
function unreadableReason(bytes: Buffer): string | undefined {
  if (bytes.length === 0) return 'it is empty';
  const text = bytes.toString('utf8');
  try {
    JSON.parse(text);
    return undefined;
  } catch {
    // eslint-disable-next-line no-control-regex -- control bytes are what tell binary from text
    if (text.includes('\ufffd') || /[\u0000-\u0008\u000e-\u001f]/.test(text)) return 'it holds binary data, not JSON';
    return /^\s*[{[]/.test(text) ? 'its JSON stops or breaks part-way; was a save interrupted?' : 'it is not JSON';
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
