// The Usage screen's state class, alone: a real runtime on the embedded sandbox behind the bridge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBridge } from '../../../renderer/src/lib/api.js';
import { usage } from '../../../renderer/src/lib/state/usage.svelte.js';
import { until } from '../../ipc/helpers.js';
import { openBridgeEnv, type BridgeEnv } from './in-process-bridge.js';

let env: BridgeEnv;
beforeAll(async () => {
  env = await openBridgeEnv();
  useBridge(env.api);
});
afterAll(async () => env.close());

describe('usage state', () => {
  it('loads the report for the form it holds', async () => {
    await usage.load();
    expect(usage.error).toBeNull();
    expect(usage.report).not.toBeNull();
    expect(usage.loading).toBe(false);
    expect(usage.report?.granularity).toBe('DAYS');
  });

  it('keeps a start after the end as that field’s error, without asking main', async () => {
    const before = usage.report;
    usage.set({ start: '2026-11-20', end: '2026-11-01' });
    expect(usage.errors.end).toBe('The end date is before the start date.');
    await usage.load();
    expect(usage.report).toBe(before);
  });

  it('keeps that error when a report asked for before it answers after it', async () => {
    usage.set({ start: '2026-11-01', end: '2026-11-20' });
    const earlier = usage.load(); // on its way to main
    usage.set({ end: '2000-01-01' });
    await earlier;
    expect(usage.errors.end).toBe('The end date is before the start date.');
    expect(usage.loading).toBe(false);
  });

  it('puts a currency the service refuses next to the currency field', async () => {
    usage.set({ start: '2026-11-01', end: '2026-11-20', currency: 'XXX' });
    await until(() => !usage.loading && (usage.errors.currency ?? usage.error));
    expect(usage.errors.currency ?? usage.error?.message).toMatch(/currenc/i);
  });
});
