// What each processor of a stream consumed (§7.3), derived from what the sandbox really did:
// bytes received, the media's real duration, simulated execution time, result and export bytes.
import { SANDBOX } from '../service/policy.js';
import type { ExportResult, OperationType, UsageRecordDto } from '../service/types.js';
import { llmFeatures } from './export-result.js';
import { resultOf } from './routes-export.js';
import type { StreamRecord } from './stream-store.js';
import { formatMicro, microCredits } from './usage.js';

const OPERATION: Record<string, OperationType> = {
  transcriber: 'BATCH_TRANSCRIPTION',
  diarization: 'SPEAKERS_DIARIZATION',
  llm: 'LLM_PROCESSING',
  echo: 'NO_OPERATION',
  transcoder: 'TRANSCODE',
};

const tokens = (text: string): number => Math.ceil(text.length / 4);

/** LLM tokens: the transcript is read once per requested feature; answers are the output. */
function llmTokens(rec: StreamRecord, result: ExportResult | null): { input: number; output: number } {
  if (!result) return { input: 0, output: 0 };
  const f = llmFeatures(rec.template, rec.properties);
  const features = (f.summary ? 1 : 0) + (f.sentiment ? 1 : 0) + f.asks.length + (f.enhanced ? 1 : 0);
  const text = result.transcription?.text ?? '';
  const prompts = f.asks.reduce((s, a) => s + a.content.length + a.system.length + (a.spec?.length ?? 0), 0);
  const output = JSON.stringify([
    result.summary,
    result.sentimentAnalysis,
    result.askAnything,
    result.enhancedTranscription?.transcription.text,
  ]);
  return { input: features * tokens(text) + tokens(' '.repeat(prompts)), output: tokens(output) };
}

export function usageRecords(rec: StreamRecord, now: number): UsageRecordDto[] {
  const durationMs = rec.media?.kind === 'media' ? rec.media.durationMs : 0;
  const succeeded = rec.lifecycle.processors.every((x) => x.state === 'COMPLETED');
  // Built at most once: the llm tokens and the first processor's storage both read it.
  let built: ExportResult | null | undefined;
  const result = (): ExportResult | null => (built ??= resultOf(rec));
  const out: UsageRecordDto[] = [];
  for (const [i, p] of rec.lifecycle.processors.entries()) {
    if (p.startedAt === null) continue; // never ran (or an llm with no prompt)
    const final = p.state === 'COMPLETED' || p.state === 'ERROR' || p.state === 'CLOSED';
    const end = final ? p.changedAt : now;
    const operationType = OPERATION[p.processorId] ?? 'NO_OPERATION';
    const completed = p.state === 'COMPLETED';
    const audio = completed && operationType !== 'LLM_PROCESSING' && operationType !== 'NO_OPERATION' ? durationMs : 0;
    const t = operationType === 'LLM_PROCESSING' && completed ? llmTokens(rec, result()) : { input: 0, output: 0 };
    const stored = i === 0 && rec.persisted && succeeded ? result() : null;
    const partial = {
      operationType,
      processedAudioLength: audio,
      processedTokens: t.input + t.output,
    };
    out.push({
      creatorId: SANDBOX.creatorId,
      groupId: rec.groupId,
      streamId: rec.streamId,
      processorId: p.processorId,
      streamConfigurationTemplateId: rec.template.id,
      operationType,
      timestamp: end,
      credits: formatMicro(microCredits(partial)),
      executionTime: Math.max(0, end - p.startedAt),
      storageSize: stored ? Buffer.byteLength(JSON.stringify(stored)) : 0,
      ingressSize: i === 0 ? rec.bytesReceived : 0,
      egressSize: i === 0 ? rec.egressBytes : 0,
      processedAudioLength: audio,
      processedTokens: t.input + t.output,
      processedInputTokens: t.input,
      processedOutputTokens: t.output,
      finalUsage: final,
      errorOccurred: p.state === 'ERROR',
    });
  }
  return out;
}
