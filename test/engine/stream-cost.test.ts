// What one file cost, from its stream's usage records: one line per operation, a processor's
// final record counting once, never its earlier partial ones on top.
import { describe, expect, it } from 'vitest';
import { countedRecords, streamCost } from '../../main/engine/stream-cost.js';
import type { StreamUsageDto, UsageRecordDto } from '../../main/service/types.js';

function rec(p: Partial<UsageRecordDto> & Pick<UsageRecordDto, 'processorId' | 'operationType'>): UsageRecordDto {
  return {
    creatorId: 'c',
    groupId: 'g',
    streamId: 's',
    streamConfigurationTemplateId: 't',
    timestamp: 0,
    credits: '0',
    executionTime: 0,
    storageSize: 0,
    ingressSize: 0,
    egressSize: 0,
    processedAudioLength: 0,
    processedTokens: 0,
    processedInputTokens: 0,
    processedOutputTokens: 0,
    finalUsage: true,
    errorOccurred: false,
    ...p,
  };
}

const dto = (processors: UsageRecordDto[], currency: string | null = null): StreamUsageDto => ({
  creatorId: 'c',
  groupId: 'g',
  streamId: 's',
  streamConfigurationTemplateId: 't',
  currency,
  processors,
});

describe('streamCost', () => {
  it('one line per operation in the order the service lists them, and their exact total', () => {
    const c = streamCost(
      dto(
        [
          rec({
            processorId: 'transcriber',
            operationType: 'BATCH_TRANSCRIPTION',
            processedAudioLength: 90_000,
            credits: '1.5',
          }),
          rec({
            processorId: 'diarization',
            operationType: 'SPEAKERS_DIARIZATION',
            processedAudioLength: 90_000,
            credits: '1.5',
          }),
          rec({
            processorId: 'llm',
            operationType: 'LLM_PROCESSING',
            processedTokens: 1300,
            processedInputTokens: 1000,
            processedOutputTokens: 300,
            credits: '0.013',
          }),
        ],
        'EUR',
      ),
    );
    expect(c.currency).toBe('EUR');
    expect(c.lines.map((l) => [l.operationType, l.audioMs, l.tokensIn, l.tokensOut, l.amount])).toEqual([
      ['BATCH_TRANSCRIPTION', 90_000, 0, 0, '1.5'],
      ['SPEAKERS_DIARIZATION', 90_000, 0, 0, '1.5'],
      ['LLM_PROCESSING', 0, 1000, 300, '0.013'],
    ]);
    expect(c.total).toEqual({
      audioMs: 180_000,
      tokensIn: 1000,
      tokensOut: 300,
      tokens: 1300,
      amount: '3.013',
      final: true,
    });
  });

  it("counts a processor's final record once, not its partial records on top", () => {
    const c = streamCost(
      dto([
        rec({
          processorId: 'llm',
          operationType: 'LLM_PROCESSING',
          timestamp: 1,
          finalUsage: false,
          credits: '0.004',
          processedInputTokens: 400,
        }),
        rec({
          processorId: 'llm',
          operationType: 'LLM_PROCESSING',
          timestamp: 3,
          finalUsage: true,
          credits: '0.01',
          processedInputTokens: 1000,
        }),
        rec({
          processorId: 'llm',
          operationType: 'LLM_PROCESSING',
          timestamp: 2,
          finalUsage: false,
          credits: '0.008',
          processedInputTokens: 800,
        }),
      ]),
    );
    expect(c.lines).toHaveLength(1);
    expect(c.lines[0]).toMatchObject({ amount: '0.01', tokensIn: 1000, final: true });
  });

  it('a processor still running counts its latest record, and the line and total say it is not final', () => {
    const c = streamCost(
      dto([
        rec({ processorId: 'transcriber', operationType: 'BATCH_TRANSCRIPTION', credits: '2' }),
        rec({ processorId: 'llm', operationType: 'LLM_PROCESSING', timestamp: 5, finalUsage: false, credits: '0.002' }),
        rec({ processorId: 'llm', operationType: 'LLM_PROCESSING', timestamp: 9, finalUsage: false, credits: '0.006' }),
      ]),
    );
    expect(c.lines.map((l) => [l.amount, l.final])).toEqual([
      ['2', true],
      ['0.006', false],
    ]);
    expect(c.total).toMatchObject({ amount: '2.006', final: false });
  });

  it('two processors of one operation share its line; an error is carried onto it', () => {
    const c = streamCost(
      dto([
        rec({
          processorId: 'transcriber',
          operationType: 'BATCH_TRANSCRIPTION',
          credits: '0.1',
          processedAudioLength: 60_000,
        }),
        rec({
          processorId: 'transcriber-2',
          operationType: 'BATCH_TRANSCRIPTION',
          credits: '0.2',
          errorOccurred: true,
        }),
      ]),
    );
    expect(c.lines).toEqual([
      expect.objectContaining({
        operationType: 'BATCH_TRANSCRIPTION',
        amount: '0.3',
        audioMs: 60_000,
        errorOccurred: true,
      }),
    ]);
  });

  it('no records: no lines and a zero total; malformed figures count as zero', () => {
    expect(streamCost(dto([]))).toMatchObject({ lines: [], total: { amount: '0', audioMs: 0, final: true } });
    const odd = streamCost({
      ...dto([]),
      processors: [
        {
          processorId: 'x',
          operationType: 'TRANSCODE',
          credits: 'n/a',
          processedAudioLength: -5,
        } as unknown as UsageRecordDto,
      ],
    });
    expect(odd.lines[0]).toMatchObject({ amount: '0', audioMs: 0, tokens: 0, final: false });
    const none = streamCost({ ...dto([]), processors: null } as unknown as StreamUsageDto);
    expect(none.lines).toEqual([]);
  });
});

describe('countedRecords', () => {
  it('keeps the latest final record when a processor sent two, and records without a processor id apart', () => {
    const a = rec({ processorId: 'llm', operationType: 'LLM_PROCESSING', timestamp: 1, credits: '1' });
    const b = rec({ processorId: 'llm', operationType: 'LLM_PROCESSING', timestamp: 2, credits: '2' });
    const loose1 = rec({ processorId: '', operationType: 'NO_OPERATION', credits: '3' });
    const loose2 = rec({ processorId: '', operationType: 'NO_OPERATION', credits: '4' });
    expect(countedRecords([a, b, loose1, loose2]).map((r) => r.credits)).toEqual(['2', '3', '4']);
  });
});
