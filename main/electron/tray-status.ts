// The tray's one-line summary of the queue; pure, so it is tested without Electron.
import type { QueueStats } from '../../preload/contract.js';

export type TrayStatus = 'idle' | 'processing' | 'paused' | 'attention';

const ATTENTION = new Set(['credentials', 'usage-limit', 'spending-cap', 'storage']);

export function trayStatus(s: QueueStats): { status: TrayStatus; label: string } {
  const busy = s.counts.queued + s.counts.uploading + s.counts.processing + s.counts.exporting;
  if (s.pause && ATTENTION.has(s.pause.reason))
    return { status: 'attention', label: `Needs attention: ${s.pause.message}` };
  if (s.counts.failed > 0 && busy === 0) return { status: 'attention', label: `${s.counts.failed} failed` };
  if (s.pause || s.offline)
    return { status: 'paused', label: s.offline ? 'Offline: waiting for the service' : 'Paused' };
  if (busy > 0) return { status: 'processing', label: `Processing ${busy}` };
  return { status: 'idle', label: 'Idle' };
}
