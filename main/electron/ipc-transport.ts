// The contract over Electron IPC: one ipcMain.handle per channel and events through one channel to
// the window. Every request is checked to come from our own renderer's frame (not an iframe or a
// page the window was tricked into loading), parsed with its schema, and answered with a Result.
import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { CHANNELS, EVENT_CHANNEL, type Result } from '../../preload/contract.js';
import { isRendererUrl } from './security.js';
import { dispatch, type Bridge } from '../ipc/handlers.js';
import type { Subscription } from '../ipc/event-stream.js';

const FORBIDDEN: Result<never> = {
  ok: false,
  error: { code: 'FORBIDDEN', message: 'This request did not come from the Sluice window.', retryable: false },
};

function trusted(event: IpcMainInvokeEvent, devServer: string | undefined): boolean {
  const frame = event.senderFrame;
  // The top frame only: a sub-frame never talks to main.
  return !!frame && frame.parent === null && isRendererUrl(frame.url, devServer);
}

/** Registers every channel; returns the function that removes them again. */
export function registerIpc(bridge: Bridge, devServer?: string): () => void {
  for (const channel of CHANNELS) {
    ipcMain.handle(channel, (event, raw: unknown) =>
      trusted(event, devServer) ? dispatch(bridge.handlers, channel, raw) : FORBIDDEN,
    );
  }
  return () => {
    for (const channel of CHANNELS) ipcMain.removeHandler(channel);
  };
}

/**
 * Sends the bridge's events to one window. Each page load starts a fresh subscription that holds
 * events until the page calls `app:ready` (its listeners are attached by then).
 */
export function attachWindow(bridge: Bridge, wc: WebContents): { ready(): void; close(): void } {
  let sub: Subscription | undefined;
  const open = (): void => {
    sub?.close();
    sub = bridge.events.subscribe((e) => {
      if (!wc.isDestroyed()) wc.send(EVENT_CHANNEL, e);
    });
  };
  open();
  wc.on('did-start-loading', open);
  wc.once('destroyed', () => sub?.close());
  return { ready: () => sub?.ready(), close: () => sub?.close() };
}
