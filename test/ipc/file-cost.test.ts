// What one file cost, over the bridge on a real runtime and the sandbox: per operation, the AI
// prompts' tokens on their own line, in the currency chosen in Settings (credits when the service
// does not price in it), and every failure in words.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addDecimal } from '../../main/engine/decimal.js';
import { makeToneWav } from '../helpers/media.js';
import { value } from '../helpers/result.js';
import { until, useBridgeEnv } from './helpers.js';

const t = useBridgeEnv();

async function processed(name: string, seconds: number): Promise<string> {
  const media = path.join(t.env.dir, 'media');
  await mkdir(media, { recursive: true });
  const added = value(await t.bridge.handlers['queue:add']({ paths: [await makeToneWav(media, name, seconds)] }));
  const jobId = added[0]?.outcome === 'added' ? added[0].jobId : '';
  const job = await until(() => {
    const j = t.env.rt.queue.job(jobId);
    return j?.state === 'completed' && j;
  }, 30_000);
  return job.streamId ?? '';
}

describe('usage:stream', () => {
  it("a recipe job's cost per operation: minutes of audio, the prompts' tokens, and their exact total", async () => {
    await t.env.rt.updateSettings((s) => ({ ...s, defaults: { ...s.defaults, recipe: 'podcast' } }));
    const streamId = await processed('episode.wav', 90);
    const cost = value(await t.bridge.handlers['usage:stream']({ streamId }));
    expect(cost.streamId).toBe(streamId);
    expect(cost.currency).toBeNull();
    expect(cost.simulated).toBe(true);
    const ops = cost.lines.map((l) => l.operationType);
    expect(ops).toContain('BATCH_TRANSCRIPTION');
    expect(ops).toContain('LLM_PROCESSING');
    const transcription = cost.lines.find((l) => l.operationType === 'BATCH_TRANSCRIPTION')!;
    expect(Math.abs(transcription.audioMs - 90_000)).toBeLessThan(100);
    // 1 credit per audio minute (§7.4 CHOICE).
    expect(Number(transcription.amount)).toBeCloseTo(1.5, 2);
    const ai = cost.lines.find((l) => l.operationType === 'LLM_PROCESSING')!;
    expect(ai.tokensIn).toBeGreaterThan(0);
    expect(ai.tokensOut).toBeGreaterThan(0);
    expect(ai.tokens).toBe(ai.tokensIn + ai.tokensOut);
    expect(ai.audioMs).toBe(0);
    expect(Number(ai.amount)).toBeGreaterThan(0);
    expect(cost.lines.every((l) => l.final)).toBe(true);
    expect(cost.total.amount).toBe(cost.lines.reduce((s, l) => addDecimal(s, l.amount), '0'));
    expect(cost.total.tokensIn).toBe(ai.tokensIn);
    // The same figures the service gives for the stream, record by record.
    // The job's detail in the Queue and in History names the recipe it ran with.
    const job = value(await t.bridge.handlers['queue:snapshot']({})).jobs.find((j) => j.streamId === streamId);
    expect(job?.recipe).toBe('Podcast episode');
    const page = value(await t.bridge.handlers['history:list']({ includeExternal: false }));
    expect(page.entries.find((e) => e.streamId === streamId)?.recipe).toBe('Podcast episode');
    const raw = await t.env.rt.connection.streamUsage(streamId);
    expect(cost.total.amount).toBe(raw.processors.reduce((s, r) => addDecimal(s, r.credits), '0'));
  }, 60_000);

  it('in the currency chosen in Settings, and in credits (saying so) when the service does not price in it', async () => {
    const streamId = await processed('talk.wav', 60);
    await t.env.rt.updateSettings((s) => ({ ...s, usage: { currency: 'EUR' } }));
    const eur = value(await t.bridge.handlers['usage:stream']({ streamId }));
    expect(eur.currency).toBe('EUR');
    expect(eur.currencyRefused).toBeUndefined();
    await t.env.rt.updateSettings((s) => ({ ...s, usage: { currency: 'AFN' } }));
    const afn = value(await t.bridge.handlers['usage:stream']({ streamId }));
    expect(afn.currency).toBeNull();
    expect(afn.currencyRefused).toBe('AFN');
    expect(Number(afn.total.amount)).toBeGreaterThan(Number(eur.total.amount));
  }, 60_000);

  it('a stream the service does not keep, or a malformed id, is answered in words', async () => {
    const gone = await t.bridge.handlers['usage:stream']({ streamId: '123e4567-e89b-42d3-a456-426614174000' });
    expect(gone).toEqual({
      ok: false,
      error: expect.objectContaining({
        code: 'NOT_FOUND',
        message: expect.stringMatching(/^The service no longer keeps this file’s usage/),
      }),
    });
    const bad = await t.bridge.handlers['usage:stream']({ streamId: 'not-a-stream' });
    expect(bad.ok ? '' : bad.error.message).toMatch(/^That is not a stream id/);
    expect(bad.ok ? '' : bad.error.code).toBe('VALIDATION');
  });
});
