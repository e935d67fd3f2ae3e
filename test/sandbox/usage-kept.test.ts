// The embedded sandbox's usage survives a restart (walkthrough S3-12): started the way Sluice starts
// it (resolveConnection with a state folder), it keeps what its streams used in that folder.
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConnection, SANDBOX_USAGE_FILE } from '../../main/runtime/connection.js';
import type { Sandbox } from '../../main/sandbox/index.js';
import { API_PREFIX } from '../../main/service/policy.js';
import type { UsageReportDto } from '../../main/service/types.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { call, upload, waitFinished } from './client.js';

const REPORT = `${API_PREFIX.usage}/usage/report`;
const open: Sandbox[] = [];

async function embedded(stateDir: string): Promise<Sandbox> {
  const conn = await resolveConnection({
    settings: { mode: 'sandbox' },
    stateDir,
    env: {},
    sandboxOptions: { speedFactor: 0.01 },
  });
  expect(conn.simulated).toBe(true);
  open.push(conn.sandbox!);
  return conn.sandbox!;
}

/** The month's totals (the interval's end, now, left out: it moves between two reports). */
async function total(sb: Sandbox): Promise<Omit<UsageReportDto['totalMeasurements'], 'endTimestamp'>> {
  const r = await call<UsageReportDto>(sb.url, REPORT);
  expect(r.status).toBe(200);
  const { endTimestamp: _now, ...rest } = r.body.totalMeasurements;
  return rest;
}

async function processOne(sb: Sandbox, wav: string): Promise<void> {
  const up = await upload(sb.url, wav);
  expect(up.status).toBe(200);
  await waitFinished(sb.url, up.body.streamId);
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

describe('embedded sandbox usage across restarts', () => {
  it('a restart keeps the streams and credits, and new ones add to them', async () => {
    const stateDir = await mkdtemp(path.join(tmpdir(), 'sluice-usage-kept-'));
    const wav = await makeToneWav(await makeMediaDir(), 'tone.wav', 6);
    const first = await embedded(stateDir);
    await processOne(first, wav);
    await processOne(first, wav);
    const before = await total(first);
    expect(before.streamsCount).toBe(2);
    expect(Number(before.credits)).toBeGreaterThan(0);
    await first.close();

    const second = await embedded(stateDir);
    const after = await total(second);
    expect(after).toEqual(before);
    await processOne(second, wav);
    const grown = await total(second);
    expect(grown.streamsCount).toBe(3);
    expect(Number(grown.credits)).toBeCloseTo(Number(before.credits) * 1.5, 5);
    // Amounts are priced as before (the currency a report asks for still converts them).
    const usd = await call<UsageReportDto>(second.url, `${REPORT}?currency=USD`);
    expect(Number(usd.body.totalMeasurements.credits)).toBeCloseTo(Number(grown.credits) * 0.01, 5);
  });

  it('is written as streams finish, not only at a clean close (a crash loses nothing)', async () => {
    const stateDir = await mkdtemp(path.join(tmpdir(), 'sluice-usage-kept-'));
    const wav = await makeToneWav(await makeMediaDir(), 'tone.wav', 6);
    const first = await embedded(stateDir);
    await processOne(first, wav);
    const used = await total(first);
    await first.usageSaved();
    // The first is still running, as if it had died without closing: a new one reads its file.
    const second = await embedded(stateDir);
    expect(await total(second)).toEqual(used);
    // Replaced whole: no temporary file is left beside it.
    expect((await readdir(stateDir)).filter((n) => n.startsWith('.') || n.includes('tmp'))).toEqual([]);
    const kept = JSON.parse(await readFile(path.join(stateDir, SANDBOX_USAGE_FILE), 'utf8')) as { records: unknown[] };
    expect(kept.records.length).toBeGreaterThan(0);
  });

  it('an unreadable file is moved aside, not written over, and usage starts from zero', async () => {
    const stateDir = await mkdtemp(path.join(tmpdir(), 'sluice-usage-kept-'));
    const file = path.join(stateDir, SANDBOX_USAGE_FILE);
    await writeFile(file, '{"version":1,"records":[{"half');
    const sb = await embedded(stateDir);
    expect((await total(sb)).streamsCount).toBe(0);
    expect(await readFile(`${file}.unreadable`, 'utf8')).toBe('{"version":1,"records":[{"half');
  });
});
