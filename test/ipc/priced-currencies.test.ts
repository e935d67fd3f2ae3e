// The currencies Usage offers are the service's (walkthrough S3-13): the contract lists none, so
// main asks the service for a report in each ISO 4217 code and keeps those it priced. Against the
// sandbox (which prices as the service does) that is the sandbox's own list, not Intl's ~160.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryVault } from '../../main/adapters/store/secrets/secret-vault.js';
import { createBridge, type Bridge } from '../../main/ipc/handlers.js';
import type { PlatformPort } from '../../main/ipc/platform.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { USAGE } from '../../main/service/policy.js';
import { value } from '../helpers/result.js';

let dir: string;
let sandbox: Sandbox;
let rt: Runtime;
let bridge: Bridge;

const platform: PlatformPort = {
  kind: 'web',
  version: '0.0.0-test',
  secrets: memoryVault(),
  openPath: async () => undefined,
  revealPath: async () => undefined,
};

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-currencies-'));
  sandbox = await startSandbox({ apiKey: 'k' });
  rt = await Runtime.open({
    stateDir: path.join(dir, 'state'),
    connection: { baseUrl: sandbox.url },
    credentials: { kind: 'apiKey', apiKey: 'k' },
    watchEvents: false,
  });
  bridge = createBridge(rt, platform, { flushIntervalMs: 20, statsIntervalMs: 50 });
});
afterEach(async () => {
  bridge.close();
  await rt.close();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

describe('usage:currencies', () => {
  it('lists exactly the currencies the service prices, and asks it once', async () => {
    const before = sandbox.stats().usageReport ?? 0;
    const list = value(await bridge.handlers['usage:currencies']({}));
    expect(list.codes).toEqual(Object.keys(USAGE.currencyPerCredit).sort());
    const asked = (sandbox.stats().usageReport ?? 0) - before;
    expect(asked).toBe(Intl.supportedValuesOf('currency').length);
    // Asked again: the answer kept (a day), no new report.
    expect(value(await bridge.handlers['usage:currencies']({}))).toEqual(list);
    expect((sandbox.stats().usageReport ?? 0) - before).toBe(asked);
  });

  it('a service that cannot answer is an error, not an empty list', async () => {
    sandbox.setFaults({ serverErrors: { next: 100_000, operations: ['usageReport'], status: 501 } });
    const r = await bridge.handlers['usage:currencies']({});
    expect(r.ok).toBe(false);
  });
});
