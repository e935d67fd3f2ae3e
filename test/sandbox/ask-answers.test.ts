// The sandbox answers a recipe's prompts the way the service does (§11.2): JSON text valid against
// each prompt's schema, made from the simulated transcript so that quoted words are really in it,
// the same for the same stream, counted in usage; and it refuses formats the contract forbids.
import { rm } from 'node:fs/promises';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findQuote, indexWords } from '../../main/engine/recipes/align.js';
import { recipeOwnParams } from '../../main/engine/recipes/recipe-params.js';
import { ANSWER_IDS, RECIPES } from '../../main/engine/recipes/recipes.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { TEMPLATE_IDS } from '../../main/service/templates.js';
import { API_PREFIX } from '../../main/service/policy.js';
import type { ExportResult, StreamUsageDto } from '../../main/service/types.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { call, exportJson, upload, waitFinished } from './client.js';

let sb: Sandbox;
let dir: string;
let wav: string;

beforeAll(async () => {
  sb = await startSandbox({ fixedProcessingMs: 60 });
  dir = await makeMediaDir();
  wav = await makeToneWav(dir, 'talk.wav', 180);
});
afterAll(async () => {
  await sb.close();
  await rm(dir, { recursive: true, force: true });
});

const asStrings = (p: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(Object.entries(p).map(([k, v]) => [k, String(v)]));

async function run(params: Record<string, unknown>, template: string = TEMPLATE_IDS.diarization) {
  const r = await upload(sb.url, wav, { template, params: asStrings(params) });
  return r;
}

async function exported(
  params: Record<string, unknown>,
  template?: string,
): Promise<{ id: string; body: ExportResult }> {
  const r = await run(params, template);
  expect(r.status).toBe(200);
  expect((await waitFinished(sb.url, r.body.streamId)).state).toBe('COMPLETED');
  const e = await exportJson<ExportResult>(sb.url, r.body.streamId);
  expect(e.status).toBe(200);
  return { id: r.body.streamId, body: e.body };
}

describe('the sandbox answers recipe prompts', () => {
  for (const recipe of Object.values(RECIPES)) {
    it(`${recipe.id}: every answer is JSON valid against its schema; quotes are runs of the transcript`, async () => {
      const { body } = await exported(recipeOwnParams(recipe));
      const ajv = new Ajv({ strict: false });
      const words = body.transcription!.words.map((w) => ({ text: w.word, startMs: w.start, endMs: w.end }));
      const index = indexWords(words);
      expect(Object.keys(body.askAnything!).sort()).toEqual(recipe.prompts.map((p) => p.id).sort());
      for (const p of recipe.prompts) {
        const answer = JSON.parse(body.askAnything![p.id]!.content) as Record<string, unknown>;
        const validate = ajv.compile(p.format);
        expect(validate(answer), JSON.stringify(validate.errors)).toBe(true);
        if (p.id === ANSWER_IDS.chapters) {
          const chapters = answer.chapters as Array<{ title: string; firstWords: string }>;
          expect(chapters.length).toBeGreaterThanOrEqual(3);
          for (const c of chapters) expect(findQuote(index, c.firstWords), c.firstWords).toBeDefined();
        }
        if (p.id === ANSWER_IDS.quotes) {
          for (const q of answer.quotes as Array<{ quote: string }>) {
            expect(findQuote(index, q.quote), q.quote).toBeDefined();
          }
        }
      }
      expect(body.summary!.content.length).toBeGreaterThan(0);
    });
  }

  it('gives the same answers for the same file and settings', async () => {
    const a = await exported(recipeOwnParams(RECIPES.podcast), TEMPLATE_IDS.transcription);
    const b = await exported(recipeOwnParams(RECIPES.podcast), TEMPLATE_IDS.transcription);
    expect(b.body.askAnything).toEqual(a.body.askAnything);
  });

  it('counts what the prompts read and write in the stream’s usage (tokens)', async () => {
    const llmOf = async (params: Record<string, unknown>) => {
      const { id } = await exported(params);
      const r = await call<StreamUsageDto>(sb.url, `${API_PREFIX.usage}/usage/streams/${id}`);
      expect(r.status).toBe(200);
      return r.body.processors.find((p) => p.processorId === 'llm')!;
    };
    const plain = await llmOf({ summary: true });
    const meeting = await llmOf(recipeOwnParams(RECIPES.meeting));
    // Two more features read the transcript, plus the prompts, their system prompts and schemas.
    const promptChars = RECIPES.meeting.prompts.reduce(
      (n, p) => n + p.prompt.length + p.system.length + JSON.stringify(p.format).length,
      0,
    );
    expect(meeting.processedInputTokens - 3 * plain.processedInputTokens).toBeGreaterThanOrEqual(
      Math.floor(promptChars / 4),
    );
    expect(meeting.processedOutputTokens).toBeGreaterThan(plain.processedOutputTokens);
    expect(meeting.processedTokens).toBe(meeting.processedInputTokens + meeting.processedOutputTokens);
  });
});

describe('the sandbox refuses response formats the contract forbids', () => {
  const schema = (s: Record<string, unknown>) => JSON.stringify(s);
  it.each([
    [
      'a default value',
      schema({
        type: 'object',
        properties: { a: { type: 'string', default: 'x' } },
        required: ['a'],
        additionalProperties: false,
      }),
      'ask0Format /properties/a has a default value, which response formats may not have',
    ],
    [
      'a free-form object',
      schema({ type: 'object', properties: { a: { type: 'object' } }, required: ['a'], additionalProperties: false }),
      'ask0Format /properties/a is a free-form object: list its properties',
    ],
    [
      'open properties',
      schema({ type: 'object', properties: { a: { type: 'string' } } }),
      'ask0Format / is a free-form object: set additionalProperties to false',
    ],
    [
      'a misspelt type',
      schema({ type: 'object', properties: { a: { type: 'strin' } }, required: ['a'], additionalProperties: false }),
      undefined,
    ],
  ])('%s', async (_name, format, message) => {
    const r = await run({ ask0: 'Anything?', ask0Format: format }, TEMPLATE_IDS.transcription);
    expect(r.status).toBe(400);
    const body = r.body as unknown as { internalErrorName: string; message: string };
    expect(body.internalErrorName).toBe('PROCESSOR_PROPERTIES_VALIDATION_ERROR');
    if (message) expect(body.message).toContain(message);
    else expect(body.message).toMatch(/ask0Format is not a valid JSON Schema/);
  });
});
