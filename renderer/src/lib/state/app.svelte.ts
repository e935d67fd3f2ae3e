// App-wide state: which screen is shown, what main told us about itself, and transient notices.
import type { AppInfo, BridgeError, Events } from '../../../../preload/contract';
import { call, on, onConnectionChange, platform, type ConnectionState } from '../api';

export type Screen = 'queue' | 'history' | 'usage' | 'settings' | 'selects';
export const SCREENS: ReadonlyArray<{ id: Screen; label: string; key: string }> = [
  { id: 'queue', label: 'Queue', key: '1' },
  { id: 'history', label: 'History', key: '2' },
  { id: 'usage', label: 'Usage', key: '3' },
  { id: 'settings', label: 'Settings', key: '4' },
  // After the four the shortcuts always named (Ctrl+1…4 stay where editors learnt them).
  { id: 'selects', label: 'Selects', key: '5' },
];

export interface Toast {
  id: number;
  tone: 'info' | 'ok' | 'danger';
  message: string;
  detail?: string;
  /** How many times the same notice came while it was showing (one toast, not a storm). */
  count: number;
  action?: { label: string; run: () => void };
}

export interface NotifyOptions {
  action?: { label: string; run: () => void };
  timeoutMs?: number;
}

export type Theme = 'system' | 'light' | 'dark';

/**
 * Changes a screen or an editor holds and has not saved. Leaving (another screen, closing the
 * editor) asks first: Save, Discard or Stay. Registered with `guardLeaving` while shown.
 */
export interface UnsavedChanges {
  /** What holds them, for the question: "Save your changes to {what}?" */
  what: string;
  /** What would be dropped, in a sentence or two, and a problem in the way of saving. */
  describe(): { detail: string; problem?: string | undefined };
  has(): boolean;
  /** False when they could not be saved: they stay, and so does the person. */
  save(): Promise<boolean>;
  discard(): void;
}

/** The question on screen: whose changes, and where the person was going. */
export interface LeaveQuestion {
  changes: UnsavedChanges[];
  then: () => void;
}

/** The theme chosen last time on this computer; 'system' where there is no storage (tests in Node). */
function systemScheme(): MediaQueryList | undefined {
  return typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : undefined;
}

function savedTheme(): Theme {
  return typeof localStorage === 'undefined'
    ? 'system'
    : ((localStorage.getItem('sluice-theme') as Theme | null) ?? 'system');
}

class AppState {
  #screen = $state.raw<Screen>('queue');
  #info = $state.raw<AppInfo | null>(null);
  #infoError = $state.raw<BridgeError | null>(null);
  #toasts = $state.raw<Toast[]>([]);
  #connection = $state<ConnectionState>('connected');
  #theme = $state<Theme>(savedTheme());
  /** The system's light or dark, followed while Sluice runs: what 'system' shows changes with it. */
  #systemDark = $state(systemScheme()?.matches ?? false);
  constructor() {
    systemScheme()?.addEventListener('change', (e) => (this.#systemDark = e.matches));
  }
  /** A job the tray or a notification asked to show; the Queue screen consumes it. */
  #focusJob = $state.raw<string | null>(null);
  /** Settings should open the new-folder editor when it shows (the empty Queue's "Add a watch folder"). */
  #newFolder = $state(false);
  /** A part of Settings to show and focus when it opens ("Set a cap" on Usage: the spending guard). */
  #settingsPart = $state<'spending-guard' | null>(null);
  /** Unsaved changes of what is shown (Settings, a watch folder's editor), asked about before leaving. */
  #guards = new Set<UnsavedChanges>();
  /** Where the user asked to go while something held unsaved changes: the question is on screen. */
  #pendingLeave = $state.raw<LeaveQuestion | null>(null);
  #nextToast = 1;
  #setAsideDismissed = $state(false);
  /** What the page loads again when contact comes back (see connectionChanged). */
  #onReconnected = new Set<() => unknown>();

  readonly platform = platform;
  get screen(): Screen {
    return this.#screen;
  }
  get info(): AppInfo | null {
    return this.#info;
  }
  get infoError(): BridgeError | null {
    return this.#infoError;
  }
  get simulated(): boolean {
    return this.#info?.simulated ?? false;
  }
  /** The settings file was set aside at start (it did not parse): said until dismissed. */
  get settingsSetAside(): string | null {
    return this.#setAsideDismissed ? null : (this.#info?.settingsSetAside ?? null);
  }
  dismissSettingsSetAside(): void {
    this.#setAsideDismissed = true;
  }
  get toasts(): Toast[] {
    return this.#toasts;
  }
  get connected(): boolean {
    return this.#connection === 'connected';
  }
  /** Web only: 'stale-link' when Sluice refuses this tab's token (a new one was made). */
  get connection(): ConnectionState {
    return this.#connection;
  }
  get theme(): Theme {
    return this.#theme;
  }
  /**
   * What is on screen: the theme chosen, or the system's when 'system'. Drawn colours (the charts)
   * read the tokens again when this changes.
   */
  get shownTheme(): 'light' | 'dark' {
    return this.#theme === 'system' ? (this.#systemDark ? 'dark' : 'light') : this.#theme;
  }
  get focusJob(): string | null {
    return this.#focusJob;
  }

  get pendingLeave(): LeaveQuestion | null {
    return this.#pendingLeave;
  }
  get newFolderRequested(): boolean {
    return this.#newFolder;
  }

  /** Goes to `screen`, unless something shown has unsaved changes: then it asks first (see pendingLeave). */
  navigate(screen: Screen): void {
    if (screen === this.#screen) {
      this.#pendingLeave = null;
      return;
    }
    this.leave(() => (this.#screen = screen));
  }

  /** Runs `then` at once, or after asking about the unsaved changes among `of` (default: all shown). */
  leave(then: () => void, of?: UnsavedChanges[]): void {
    const changes = (of ?? [...this.#guards]).filter((c) => c.has());
    this.#pendingLeave = changes.length > 0 ? { changes, then } : null;
    if (changes.length === 0) then();
  }

  /** Registers unsaved changes to ask about; returns the function that removes them. */
  guardLeaving(changes: UnsavedChanges): () => void {
    this.#guards.add(changes);
    return () => this.#guards.delete(changes);
  }
  hasUnsaved(): boolean {
    return [...this.#guards].some((c) => c.has());
  }

  /** The answer to the unsaved-changes question: leave after saving or discarding, or stay. */
  async finishLeaving(answer: 'save' | 'discard' | 'stay'): Promise<void> {
    const q = this.#pendingLeave;
    if (!q) return;
    if (answer === 'discard') for (const c of q.changes) c.discard();
    let leave = answer !== 'stay';
    if (answer === 'save') {
      for (const c of q.changes) if (leave) leave = await c.save();
    }
    if (this.#pendingLeave === q) this.#pendingLeave = null;
    if (leave) q.then();
  }

  addWatchFolder(): void {
    this.#newFolder = true;
    this.navigate('settings');
  }
  /** Opens Settings at one of its parts, scrolled to and focused there. */
  openSettingsAt(part: 'spending-guard'): void {
    this.#settingsPart = part;
    this.navigate('settings');
  }
  get settingsPartRequested(): 'spending-guard' | null {
    return this.#settingsPart;
  }
  takeSettingsPart(): 'spending-guard' | null {
    const part = this.#settingsPart;
    this.#settingsPart = null;
    return part;
  }
  takeNewFolderRequest(): boolean {
    const asked = this.#newFolder;
    this.#newFolder = false;
    return asked;
  }

  takeFocusJob(): string | null {
    const id = this.#focusJob;
    this.#focusJob = null;
    return id;
  }

  setTheme(theme: Theme): void {
    this.#theme = theme;
    localStorage.setItem('sluice-theme', theme);
    if (theme === 'system') document.documentElement.removeAttribute('data-theme');
    else document.documentElement.dataset.theme = theme;
  }

  #timers = new Map<number, ReturnType<typeof setTimeout>>();

  /** Shows a notice; the same notice again while it shows counts up on it instead of stacking. */
  notify(tone: Toast['tone'], message: string, detail?: string, options: NotifyOptions = {}): number {
    const ms = options.timeoutMs ?? (tone === 'danger' ? 9000 : 4500);
    const same = options.action
      ? undefined
      : this.#toasts.find((t) => t.tone === tone && t.message === message && t.detail === detail && !t.action);
    const id = same?.id ?? this.#nextToast++;
    if (same) this.#toasts = this.#toasts.map((t) => (t.id === id ? { ...t, count: t.count + 1 } : t));
    else {
      const toast: Toast = { id, tone, message, count: 1, ...(detail ? { detail } : {}) };
      if (options.action) toast.action = options.action;
      this.#toasts = [...this.#toasts, toast];
    }
    clearTimeout(this.#timers.get(id));
    this.#timers.set(
      id,
      setTimeout(() => this.dismissToast(id), ms),
    );
    return id;
  }

  /** Shows a failed call's message; returns the value for a successful one. */
  report<T>(result: { ok: true; value: T } | { ok: false; error: BridgeError }, context?: string): T | undefined {
    if (result.ok) return result.value;
    const detail = result.error.internalErrorName ? `${result.error.internalErrorName}` : undefined;
    this.notify('danger', context ? `${context}: ${result.error.message}` : result.error.message, detail);
    return undefined;
  }

  dismissToast(id: number): void {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
    this.#toasts = this.#toasts.filter((t) => t.id !== id);
  }

  /**
   * Registers what to load again once contact with Sluice comes back after it was lost; returns the
   * function that removes it.
   */
  onReconnected(reload: () => unknown): () => void {
    this.#onReconnected.add(reload);
    return () => this.#onReconnected.delete(reload);
  }

  /**
   * The web bridge's event stream changed state. Contact that comes back after it was lost loads
   * again what the page holds: a request that was on its way when Sluice stopped (the first load of
   * Settings, when the tab opened just before a restart) got no answer, and events sent while the
   * stream was down are gone, so the page would otherwise keep an error or an old copy for good.
   * The stream's first opening is not a return: the page's own first load covers it.
   */
  connectionChanged(state: ConnectionState): void {
    const returned = state === 'connected' && this.#connection !== 'connected';
    this.#connection = state;
    if (!returned) return;
    void this.#loadInfo();
    for (const reload of this.#onReconnected) void reload();
  }

  async #loadInfo(): Promise<void> {
    const res = await call('app:info');
    if (res.ok) {
      this.#info = res.value;
      this.#infoError = null;
    } else this.#infoError = res.error;
  }

  async start(): Promise<void> {
    this.setTheme(this.#theme);
    onConnectionChange((state) => this.connectionChanged(state));
    on('connection:changed', (info) => (this.#info = info));
    on('navigation:requested', (req: Events['navigation:requested']) => {
      this.navigate(req.screen);
      if (req.jobId) this.#focusJob = req.jobId;
    });
    await this.#loadInfo();
  }
}

export const app = new AppState();
