// The StreamConfigurationDto of a new stream (§5.2): the patched template with topics, sinks and
// egress (C6: persist absent → ephemeral; persistTags absent → every sink; match mode ANY).
import { randomBytes, randomUUID } from 'node:crypto';
import type { TemplateSpec } from '../service/templates.js';
import type { StreamConfigurationDto, TopicDto, WebhookEndpointDto } from '../service/types.js';
import { processorTemplates, type Props } from './processor-defaults.js';

export interface PersistOptions {
  persist: boolean;
  persistTags: string[] | null;
  matchPersistTags: 'ALL' | 'ANY';
}

const MESSAGE_SCHEMA: Record<string, string> = {
  transcriber: 'tech.vatis.schema.stream.processor.messages.transcription.TranscriptionResponseDto',
  diarization: 'tech.vatis.schema.stream.processor.messages.diarization.DiarizationResponseDto',
  llm: 'tech.vatis.schema.stream.processor.messages.llm.LlmResponseDto',
  echo: 'bytes',
  transcoder: 'bytes',
};

const letters = (n: number): string => Array.from(randomBytes(n), (b) => String.fromCharCode(97 + (b % 26))).join('');

function topic(name: string, messageSchema: string, extra: Partial<TopicDto> = {}): TopicDto {
  return {
    topic: name,
    messageSchema,
    connectionOptions: {},
    headers: {},
    messageHeaders: {},
    subscriptions: {},
    ...extra,
  };
}

function persistedTags(tags: string[], p: PersistOptions): boolean {
  if (!p.persist) return false;
  if (p.persistTags === null) return true;
  const wanted = p.persistTags;
  return p.matchPersistTags === 'ALL' ? wanted.every((t) => tags.includes(t)) : wanted.some((t) => tags.includes(t));
}

export function buildConfiguration(input: {
  template: TemplateSpec;
  properties: readonly Props[];
  streamId: string;
  groupId: string;
  persist: PersistOptions;
  webhooks: WebhookEndpointDto[];
}): StreamConfigurationDto {
  const { template, streamId, groupId } = input;
  const procs = processorTemplates(template);
  const first = procs[0];
  const dataSource = topic(`persistent://vatis-streams/data-sources/${randomUUID()}`, 'bytes', {
    connectionOptions: { 'X-Vat-Topic-Conn-Close-On-Disconnect': 'true' },
    headers: { 'X-Vat-Topic-Accept-Frame-Type': 'final' },
    messageHeaders: { 'X-Vat-Stream-Frame-Type': 'final', 'X-Vat-Stream-Processor-Id': 'gateway' },
  });
  const dataSinks: Record<string, TopicDto> = {};
  const processors = procs.map((p, i) => {
    const tags = [p.id, 'main'];
    const persist = persistedTags(tags, input.persist);
    const schema = MESSAGE_SCHEMA[p.id] ?? 'bytes';
    const sinkTopic = `persistent://vatis-streams/${persist ? 'persistent-data-sinks' : 'data-sinks'}/${randomUUID()}`;
    dataSinks[p.id] = topic(sinkTopic, schema, {
      headers: { 'X-Vat-Topic-Accept-Frame-Type': 'final' },
      messageHeaders: {
        'X-Vat-Stream-Egress-Tags': tags.join(','),
        'X-Vat-Stream-Id': streamId,
        'X-Vat-Stream-Group-Id': groupId,
        'X-Vat-Stream-Schema': schema,
        'X-Vat-Stream-Processor-Id': p.id,
      },
    });
    const prev = i === 0 ? null : procs[i - 1];
    const subscription = {
      subscription: `${p.id}-${letters(5)}`,
      topic: prev ? `persistent://vatis-streams/processors/${streamId}-${prev.id}` : dataSource.topic,
      messageSchema: prev ? (MESSAGE_SCHEMA[prev.id] ?? 'bytes') : 'bytes',
      connectionOptions: {},
      headers: { 'X-Vat-Sub-Accept-Frame-Type': 'final' },
    };
    return {
      id: p.id,
      source: subscription,
      destination: topic(`persistent://vatis-streams/processors/${streamId}-${p.id}`, schema),
      clusterDomainName: `${p.id}.processors.sandbox.svc.cluster.local`,
      podsDiscoveryClusterDomainName: `${p.id}-pods.processors.sandbox.svc.cluster.local`,
      propertiesSchema: p.propertiesSchema,
      properties: structuredClone(input.properties[i] ?? {}),
      egress: { persist, sink: true, tags },
    };
  });
  if (first) dataSource.subscriptions[first.id] = { ...(processors[0]?.source ?? ({} as never)) };
  return {
    streamConfigurationTemplateId: template.id,
    dataSource,
    dataSinks,
    processors,
    dynamicWebhookEndpoints: input.webhooks,
  };
}

/** C5 */
export function defaultStreamName(prefix: string): string {
  return prefix + letters(6);
}
