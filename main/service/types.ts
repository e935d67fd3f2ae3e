// Wire types of the four services (../shared/service-contract.md §4–§8).
// Both the client (main/api) and the sandbox (main/sandbox) speak exactly these shapes.

export const STREAM_STATES = ['READY', 'COMPLETED', 'FAILED', 'EXPIRED'] as const;
export type StreamState = (typeof STREAM_STATES)[number];

export const GATEWAY_STATES = ['CONNECTED', 'DISCONNECTED', 'CLOSED', 'ERROR'] as const;
export type GatewayState = (typeof GATEWAY_STATES)[number];

export const PROCESSOR_STATES = ['WAITING', 'RUNNING', 'COMPLETED', 'ERROR', 'CLOSED'] as const;
export type ProcessorState = (typeof PROCESSOR_STATES)[number];

export const GRANULARITIES = ['HOURS', 'DAYS', 'MONTHS'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

export const OPERATION_TYPES = [
  'BATCH_TRANSCRIPTION',
  'REAL_TIME_TRANSCRIPTION',
  'SPEAKERS_DIARIZATION',
  'VOICE_ACTIVITY_DETECTION',
  'TRANSCODE',
  'TRANSLATION',
  'SUMMARIZATION',
  'SENTIMENT_ANALYSIS',
  'NO_OPERATION',
  'LLM_PROCESSING',
] as const;
export type OperationType = (typeof OPERATION_TYPES)[number];

/** Every internalErrorName of §8.2. */
export const INTERNAL_ERROR_NAMES = [
  'GENERAL_INTERNAL_ERROR',
  'GENERAL_VALIDATION_ERROR',
  'GENERAL_AUTHENTICATION_ERROR',
  'GENERAL_AUTHORIZATION_ERROR',
  'GENERAL_NOT_FOUND_ERROR',
  'GENERAL_BAD_REQUEST_ERROR',
  'GENERAL_TIME_OUT_ERROR',
  'GENERAL_CONFLICT_ERROR',
  'STREAM_CONFIGURATION_BAD_TEMPLATE',
  'STREAM_CONFIGURATION_BAD_PATCH',
  'STREAM_CONFIGURATION_BAD_PATCH_ALIAS',
  'STREAM_USAGE_LIMIT_REACHED',
  'WEBHOOK_CONFIGURATION_ERROR',
  'WEBHOOK_ENDPOINTS_DEFINITION_LIMIT_REACHED',
  'CURRENCY_ERROR',
  'USAGE_INTERVAL_TOO_LONG',
  'USAGE_INTERVAL_TOO_SHORT',
  'PROCESSOR_FAILED_RESERVATION_ERROR',
  'PROCESSOR_FAILED_CONFIRMATION_ERROR',
  'PROCESSOR_PROPERTIES_VALIDATION_ERROR',
  'PROCESSOR_TRANSCODING_ERROR',
  'PROCESSOR_TRANSCRIPTION_ERROR',
  'PROCESSOR_SPEAKER_DIARIZATION_ERROR',
  'PROCESSOR_GENERAL_ERROR',
  'PROCESSOR_CORDONED_ERROR',
  'PROCESSOR_X_AUDIO_REF_UNSUPPORTED',
  'PROCESSOR_X_AUDIO_REF_INCONSISTENCY',
  'PROCESSOR_FEATURE_ERROR',
  'PULSAR_ERROR',
  'HTTP_STREAM_CONFIGURATION_ERROR',
] as const;
export type InternalErrorName = (typeof INTERNAL_ERROR_NAMES)[number];

/** §8.1. nestedErrors is an array of ErrorResponse, [] when none (C20). */
export interface ErrorResponse {
  statusCode: number;
  title: string;
  message: string;
  internalErrorName: string;
  nestedErrors: ErrorResponse[];
}

export interface SubscriptionDto {
  subscription: string;
  topic: string;
  messageSchema: string;
  connectionOptions: Record<string, string>;
  headers: Record<string, string>;
}

export interface TopicDto {
  topic: string;
  messageSchema: string;
  connectionOptions: Record<string, string>;
  headers: Record<string, string>;
  messageHeaders: Record<string, string>;
  subscriptions: Record<string, SubscriptionDto>;
}

export interface ProcessorEgressConfigurationDto {
  persist: boolean;
  sink: boolean;
  tags: string[];
}

export interface ProcessorConfigurationDto {
  id: string;
  source?: SubscriptionDto | null;
  destination?: TopicDto | null;
  clusterDomainName?: string | null;
  podsDiscoveryClusterDomainName?: string | null;
  propertiesSchema: string;
  properties: Record<string, unknown>;
  egress: ProcessorEgressConfigurationDto;
}

export interface WebhookEndpointDto {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  description: string | null;
}

export interface StreamConfigurationDto {
  streamConfigurationTemplateId: string;
  dataSource: TopicDto;
  dataSinks: Record<string, TopicDto>;
  processors: ProcessorConfigurationDto[];
  dynamicWebhookEndpoints: WebhookEndpointDto[];
}

/** §5.2 */
export interface StreamDto {
  streamId: string;
  name: string;
  groupId: string;
  configuration: StreamConfigurationDto;
  createdTimestamp: string;
  creatorId: string;
  groupCreatorId: string;
  state: StreamState;
  stateDescription: string | null;
  finalizedTimestamp: string | null;
}

export interface SortObject {
  sorted: boolean;
  unsorted: boolean;
  empty: boolean;
}

/** §5.3, the Spring Data page shape. */
export interface Page<T> {
  content: T[];
  totalElements: number;
  totalPages: number;
  number: number;
  size: number;
  numberOfElements: number;
  first: boolean;
  last: boolean;
  empty: boolean;
  sort: SortObject;
  pageable: {
    pageNumber: number;
    pageSize: number;
    paged: boolean;
    unpaged: boolean;
    offset: number;
    sort: SortObject;
  };
}

/** §5.4 */
export interface GatewayComponentDto {
  state: GatewayState;
  stateChangedTimestamp: string;
}

export interface ProcessorComponentDto {
  processorId: string;
  state: ProcessorState;
  stateChangedTimestamp: string;
  stateDescription: string | null;
}

export interface StreamComponentsDto {
  streamId: string;
  groupId: string;
  state: StreamState;
  stateDescription: string | null;
  stateChangedTimestamp: string;
  gateway: GatewayComponentDto;
  processors: ProcessorComponentDto[];
}

/** §6.3 Word, export variant (the catalogue variant carries `metadata` instead). */
export interface Word {
  word: string;
  start: number;
  end: number;
  confidence?: number;
  language?: string;
  speakers?: string[];
  speakersOverlap?: boolean;
  channel?: string;
  metadata?: Record<string, string>;
}

export interface Utterance {
  speakerIds: string[];
  overlap: boolean;
  channel?: string;
  start: number;
  end: number;
  text: string;
  words: Word[];
}

export type Sentiment = 'negative' | 'neutral' | 'positive';

export interface SentimentSegment {
  text: string;
  sentiment: Sentiment;
  channel?: number;
  startTime: number;
  endTime: number;
  score: number;
}

export interface SentimentCounts {
  negativeCount: number;
  positiveCount: number;
  neutralCount: number;
  averageScore: number;
  sentiment: Sentiment;
}

export interface SentimentSummary extends SentimentCounts {
  channels?: Array<SentimentCounts & { channel: number }>;
}

export interface AskAnythingEntry {
  promptId: string;
  content: string;
  responseFormatSpecification: string | null;
}

/** §6.3 AudioIntelligenceResponseDto. Unknown keys are kept by whoever saves it (§6.6). */
export interface ExportResult {
  transcription?: { text: string; words: Word[] };
  utterances?: Utterance[];
  summary?: { content: string };
  sentimentAnalysis?: { segments: SentimentSegment[]; summary: SentimentSummary };
  askAnything?: Record<string, AskAnythingEntry>;
  enhancedTranscription?: { transcription: { text: string; words: Word[] } };
  [key: string]: unknown;
}

/** §7.2 — every measurement is an integer written as a string. */
export interface UsageMeasurements {
  executionTime: string;
  storageSize: string;
  ingressSize: string;
  egressSize: string;
  processedAudioLength: string;
  processedTokens: string;
  processedInputTokens: string;
  processedOutputTokens: string;
}

export interface UsageReportItemDto {
  credits: string;
  startTimestamp: number;
  endTimestamp: number;
  streamsCount: number;
  operationType?: OperationType;
  streamConfigurationTemplateId?: string;
  measurements: UsageMeasurements;
}

export interface UsageReportDto {
  startTimestamp: number;
  endTimestamp: number;
  granularity: Granularity;
  currency: string | null;
  totalMeasurements: UsageReportItemDto;
  aggregatedMeasurements: UsageReportItemDto[];
  operationTypeAggregatedMeasurements: UsageReportItemDto[];
  streamConfigurationTemplateIdAggregatedMeasurements: UsageReportItemDto[];
}

/** §7.3 */
export interface UsageRecordDto {
  creatorId: string;
  groupId: string;
  streamId: string;
  processorId: string;
  streamConfigurationTemplateId: string;
  operationType: OperationType;
  timestamp: number;
  credits: string;
  executionTime: number;
  storageSize: number;
  ingressSize: number;
  egressSize: number;
  processedAudioLength: number;
  processedTokens: number;
  processedInputTokens: number;
  processedOutputTokens: number;
  finalUsage: boolean;
  errorOccurred: boolean;
}

export interface StreamUsageDto {
  creatorId: string;
  groupId: string;
  streamId: string;
  streamConfigurationTemplateId: string;
  currency: string | null;
  processors: UsageRecordDto[];
}

/** §2.2 token endpoint. */
export interface TokenResponse {
  access_token: string;
  expires_in: number;
  token_type: string;
  [key: string]: unknown;
}

/** §13 StreamConfigurationTemplateDto, reduced to what Sluice reads. */
export interface StreamConfigurationTemplateDto {
  id: string;
  name: string;
  description: string;
  dataSourceSchema: string;
  processors: Array<{
    id: string;
    name: string;
    description: string;
    previousProcessorId: string | null;
    propertiesSchema: string;
    properties: Record<string, unknown>;
    patchAliases: Record<string, string>;
    egress: ProcessorEgressConfigurationDto;
  }>;
  patchAliases: Record<string, string>;
}
