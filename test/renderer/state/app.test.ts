// App-wide state, alone: going to another screen asks first when something shown holds unsaved
// changes, and the answer decides whether the person leaves; notices count up instead of stacking.
import './browser-globals.js';
import { describe, expect, it } from 'vitest';
import type { AppInfo, BridgeApi, Result } from '../../../preload/contract.js';
import { useBridge } from '../../../renderer/src/lib/api.js';
import { app, type UnsavedChanges } from '../../../renderer/src/lib/state/app.svelte.js';

function changes(what: string, saves: boolean): UnsavedChanges & { dirty: boolean; saved: number; discarded: number } {
  return {
    what,
    dirty: true,
    saved: 0,
    discarded: 0,
    describe: () => ({ detail: `${what} changed` }),
    has() {
      return this.dirty;
    },
    async save() {
      this.saved++;
      if (saves) this.dirty = false;
      return saves;
    },
    discard() {
      this.discarded++;
      this.dirty = false;
    },
  };
}

describe('app state', () => {
  it('goes to another screen at once when nothing is unsaved', () => {
    app.navigate('history');
    expect(app.screen).toBe('history');
    expect(app.pendingLeave).toBeNull();
    app.navigate('queue');
    expect(app.screen).toBe('queue');
  });

  it('asks before leaving unsaved changes, and stays when told to', async () => {
    const folder = changes('the watch folder', true);
    const stop = app.guardLeaving(folder);
    app.navigate('settings');
    expect(app.screen).toBe('queue');
    expect(app.pendingLeave?.changes).toEqual([folder]);
    expect(app.hasUnsaved()).toBe(true);
    await app.finishLeaving('stay');
    expect(app.pendingLeave).toBeNull();
    expect(app.screen).toBe('queue');
    expect(folder.saved + folder.discarded).toBe(0);
    // Choosing the screen already shown drops the question.
    app.navigate('history');
    app.navigate('queue');
    expect(app.pendingLeave).toBeNull();
    stop();
    app.navigate('history');
    expect(app.screen).toBe('history');
  });

  it('leaves after a save that worked or a discard, and stays after a save that failed', async () => {
    const good = changes('Settings', true);
    const bad = changes('the folder', false);
    const stopGood = app.guardLeaving(good);
    const stopBad = app.guardLeaving(bad);
    app.navigate('usage');
    expect(app.pendingLeave?.changes).toEqual([good, bad]);
    await app.finishLeaving('save');
    expect([good.saved, bad.saved]).toEqual([1, 1]);
    expect(app.screen).toBe('history');
    app.navigate('usage');
    expect(app.pendingLeave?.changes).toEqual([bad]);
    await app.finishLeaving('discard');
    expect(bad.discarded).toBe(1);
    expect(app.screen).toBe('usage');
    stopGood();
    stopBad();
  });

  it('asks about only the changes named when an editor closes', () => {
    const shown = changes('Settings', true);
    const editor = changes('the folder', true);
    const stop = app.guardLeaving(shown);
    editor.dirty = false;
    let closed = 0;
    app.leave(() => closed++, [editor]);
    expect(closed).toBe(1);
    expect(app.pendingLeave).toBeNull();
    stop();
  });

  it('counts the same notice up instead of stacking it, and reports a failed call in words', () => {
    const before = app.toasts.length;
    const id = app.notify('info', 'Saved.');
    expect(app.notify('info', 'Saved.')).toBe(id);
    expect(app.toasts.length).toBe(before + 1);
    expect(app.toasts.find((t) => t.id === id)?.count).toBe(2);
    expect(app.report({ ok: true, value: 3 })).toBe(3);
    const failed = app.report(
      { ok: false, error: { code: 'OFFLINE', message: 'No connection.', retryable: true } },
      'Could not save',
    );
    expect(failed).toBeUndefined();
    expect(app.toasts.at(-1)).toMatchObject({ tone: 'danger', message: 'Could not save: No connection.' });
    app.dismissToast(id);
    expect(app.toasts.some((t) => t.id === id)).toBe(false);
  });

  it('loads again what the page holds when contact comes back after a loss, and only then', async () => {
    // Main's answer to app:info, from a memory port: the version tells one answer from the next.
    let asked = 0;
    const info = (): AppInfo => ({
      version: `1.0.${asked}`,
      platform: 'web',
      simulated: true,
      connection: 'Local sandbox',
      os: 'linux',
      startAtLoginSupported: false,
    });
    useBridge({
      platform: 'web',
      app: { info: async (): Promise<Result<AppInfo>> => (asked++, { ok: true, value: info() }) },
    } as unknown as BridgeApi);
    let reloads = 0;
    const stop = app.onReconnected(() => reloads++);

    // The stream's first opening is no return: the page's own first load covers it.
    app.connectionChanged('connected');
    expect(reloads).toBe(0);
    expect(asked).toBe(0);

    // Lost (Sluice stopped), then back: one reload of everything registered, and of main's info.
    app.connectionChanged('reconnecting');
    expect(app.connected).toBe(false);
    app.connectionChanged('reconnecting');
    app.connectionChanged('connected');
    expect(app.connected).toBe(true);
    expect(reloads).toBe(1);
    await expect.poll(() => app.info?.version).toBe('1.0.1');
    app.connectionChanged('connected');
    expect(reloads).toBe(1);

    // A refused link is no return either; and a removed reload is not run again.
    app.connectionChanged('stale-link');
    expect(app.connection).toBe('stale-link');
    expect(reloads).toBe(1);
    stop();
    app.connectionChanged('reconnecting');
    app.connectionChanged('connected');
    expect(reloads).toBe(1);
    expect(asked).toBe(2);
  });
});
