// The configuration service may have an origin of its own (§1): `--configuration-url` and the
// custom connection's "Templates (configuration)" URL send the template listing there and nowhere
// else, over HTTP to the sandbox.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConnection } from '../../main/runtime/connection.js';
import { createClient } from '../../main/api/client.js';
import { SETTINGS } from '../../main/engine/settings.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { buildCli, runCli } from './run-cli.js';

const KEY = 'configuration-url-key';
let dir: string;
let sandbox: Sandbox;
/** An origin nothing listens on. */
let dead: string;

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

beforeAll(async () => {
  buildCli();
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-configuration-url-'));
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
  dead = `http://127.0.0.1:${await closedPort()}`;
}, 180_000);

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

interface Listing {
  source: string;
  notice?: string;
  templates: Array<{ id: string; account: boolean }>;
}

async function listTemplates(args: string[]): Promise<Listing> {
  const r = await runCli(['templates', '--json', '--state-dir', path.join(dir, 'state'), ...args], {
    SLUICE_API_KEY: KEY,
  });
  expect(r.code, r.out).toBe(0);
  return JSON.parse(r.stdout) as Listing;
}

describe('the configuration service at an origin of its own', () => {
  it('`--configuration-url` alone decides where the account’s templates are read', async () => {
    const there = await listTemplates(['--base-url', dead, '--configuration-url', sandbox.url]);
    expect(there.source).toBe('account');
    expect(there.templates.map((t) => t.id)).toContain('acme-newsroom-v2');

    const elsewhere = await listTemplates(['--base-url', sandbox.url, '--configuration-url', dead]);
    expect(elsewhere.source).toBe('builtin');
    expect(elsewhere.templates.map((t) => t.id)).not.toContain('acme-newsroom-v2');
    expect(elsewhere.notice).toBeTruthy();
  }, 60_000);

  it('a custom connection’s configuration URL is kept in settings and reaches the client', async () => {
    const settings = SETTINGS.parse({
      connection: { mode: 'custom', baseUrl: dead, urls: { configuration: sandbox.url } },
    });
    const conn = await resolveConnection({
      settings: settings.connection,
      stateDir: tmpdir(),
      credentials: { kind: 'apiKey', apiKey: KEY },
    });
    const client = createClient(conn.client);
    expect(client.urls.configuration).toBe(sandbox.url);
    expect(client.urls.stream).toBe(dead);
    const ids: string[] = [];
    for await (const t of client.iterateTemplates()) ids.push(t.id);
    expect(ids).toContain('acme-newsroom-v2');
  }, 60_000);
});
