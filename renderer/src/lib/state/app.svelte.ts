// App-wide state: which screen is shown, what main told us about itself, and transient notices.
import type { AppInfo, BridgeError, Events } from '../../../../preload/contract';
import { call, on, onConnectionChange, platform } from '../api';

export type Screen = 'queue' | 'history' | 'usage' | 'settings';
export const SCREENS: ReadonlyArray<{ id: Screen; label: string; key: string }> = [
  { id: 'queue', label: 'Queue', key: '1' },
  { id: 'history', label: 'History', key: '2' },
  { id: 'usage', label: 'Usage', key: '3' },
  { id: 'settings', label: 'Settings', key: '4' },
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

class AppState {
  #screen = $state.raw<Screen>('queue');
  #info = $state.raw<AppInfo | null>(null);
  #infoError = $state.raw<BridgeError | null>(null);
  #toasts = $state.raw<Toast[]>([]);
  #connected = $state(true);
  #theme = $state<Theme>((localStorage.getItem('sluice-theme') as Theme | null) ?? 'system');
  /** A job the tray or a notification asked to show; the Queue screen consumes it. */
  #focusJob = $state.raw<string | null>(null);
  /** Settings should open the new-folder editor when it shows (the empty Queue's "Add a watch folder"). */
  #newFolder = $state(false);
  /** Asks whether the current screen holds unsaved changes; Settings registers it while shown. */
  #unsaved: (() => boolean) | null = null;
  /** Where the user asked to go while Settings held unsaved changes: the question is on screen. */
  #pendingLeave = $state.raw<Screen | null>(null);
  #nextToast = 1;

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
  get toasts(): Toast[] {
    return this.#toasts;
  }
  get connected(): boolean {
    return this.#connected;
  }
  get theme(): Theme {
    return this.#theme;
  }
  get focusJob(): string | null {
    return this.#focusJob;
  }

  get pendingLeave(): Screen | null {
    return this.#pendingLeave;
  }
  get newFolderRequested(): boolean {
    return this.#newFolder;
  }

  /** Goes to `screen`, unless the current one has unsaved changes: then it asks first (see pendingLeave). */
  navigate(screen: Screen): void {
    if (screen !== this.#screen && this.#unsaved?.()) {
      this.#pendingLeave = screen;
      return;
    }
    this.#pendingLeave = null;
    this.#screen = screen;
  }

  /** Registers the current screen's unsaved-changes check; returns the function that removes it. */
  guardLeaving(hasUnsaved: () => boolean): () => void {
    this.#unsaved = hasUnsaved;
    return () => {
      if (this.#unsaved === hasUnsaved) this.#unsaved = null;
    };
  }
  /** The answer to the unsaved-changes question: leave (after saving or discarding), or stay. */
  finishLeaving(leave: boolean): void {
    const to = this.#pendingLeave;
    this.#pendingLeave = null;
    if (leave && to) this.#screen = to;
  }

  addWatchFolder(): void {
    this.#newFolder = true;
    this.navigate('settings');
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

  async start(): Promise<void> {
    this.setTheme(this.#theme);
    onConnectionChange((connected) => (this.#connected = connected));
    on('connection:changed', (info) => (this.#info = info));
    on('navigation:requested', (req: Events['navigation:requested']) => {
      this.navigate(req.screen);
      if (req.jobId) this.#focusJob = req.jobId;
    });
    const res = await call('app:info');
    if (res.ok) this.#info = res.value;
    else this.#infoError = res.error;
  }
}

export const app = new AppState();
