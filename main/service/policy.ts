// Note: this is THE one place for every CHOICE of ../shared/service-contract.md (§17) and every
// number the client and the sandbox agree on. When the real service is learnt to behave otherwise,
// change it here; nothing else in the code restates these values.

import type { ServiceName } from '../../common/service-names.js';

export const API_PREFIX = {
  gateway: '/http-gateway/api/v1',
  stream: '/stream-service/api/v1',
  export: '/export-service/api/v1',
  usage: '/usage-service/api/v1',
  configuration: '/stream-configuration-service/api/v1',
  auth: '/realms/vatistech/protocol/openid-connect',
} as const satisfies Record<ServiceName, string>;

/** §1: production origins, one per service. */
export const PRODUCTION_URLS = {
  gateway: 'https://http-gateway.vatis.tech',
  stream: 'https://stream-service.vatis.tech',
  export: 'https://export-service.vatis.tech',
  usage: 'https://usage-service.vatis.tech',
  configuration: 'https://stream-configuration-service.vatis.tech',
  auth: 'https://auth.vatis.tech',
} as const satisfies Record<ServiceName, string>;

export type { ServiceName };

/** C13: listing. */
export const PAGE = { defaultSize: 10, maxSize: 100 } as const;

/** C23 + §9.4 client rule: retention counts from finalizedTimestamp. */
export const RETENTION = {
  defaultMs: 3 * 60 * 60 * 1000,
  /** The latest moment after finalisation at which the client still trusts an export to work. */
  safeExportMs: 2.5 * 60 * 60 * 1000,
} as const;

/** C8 */
export const LINK_BODY = { maxBytes: 2048, pattern: /^https?:\/\/\S+$/ } as const;

/** §4.4c, §15.2 */
export const MULTIPART = {
  /** "at most 1 MB" (§4.4c, §15.1): a megabyte is 1,000,000 bytes, as the contract and the app count it. */
  configurationMaxBytes: 1_000_000,
  /** Switch to multipart when the query string would exceed this many characters. */
  queryThresholdChars: 6 * 1024,
  /** A single parameter value longer than this is treated as a prompt and sent in multipart. */
  longValueChars: 200,
  partNames: { configuration: 'configuration', file: 'file' },
} as const;

/** C17 */
export const EXPORT = { readyWaitMaxMs: 60_000 } as const;

/** C19 / §7.4 */
export const USAGE = {
  maxIntervalMs: {
    HOURS: 31 * 24 * 3600_000,
    DAYS: 366 * 24 * 3600_000,
    MONTHS: 5 * 366 * 24 * 3600_000,
  },
  /**
   * Fixed conversion rates from credits (§7.4 GAP: the currencies the service supports are not
   * published); any other code, ISO 4217 or not, is a CURRENCY_ERROR. The client offers every ISO
   * 4217 code and lets the service's answer decide.
   */
  currencyPerCredit: {
    USD: 0.01,
    EUR: 0.0092,
    GBP: 0.0079,
    CHF: 0.0088,
    JPY: 1.5,
    CAD: 0.0137,
    AUD: 0.0152,
    SEK: 0.105,
    NOK: 0.107,
    DKK: 0.0686,
    PLN: 0.0398,
    RON: 0.0458,
    CZK: 0.231,
    HUF: 3.61,
    INR: 0.835,
    BRL: 0.05,
  } as Record<string, number>,
  creditsPerAudioMinute: 1,
  creditsPer1000Tokens: 0.2,
  decimals: 6,
} as const;

/** C5 */
export const DEFAULT_STREAM_NAME_PREFIX = 'Stream ';

/** §11.2, §10.5, §15.1 */
export const LIMITS = {
  askSlots: 3,
  askIdMaxChars: 64,
  dynamicWebhooksPerStream: 3,
} as const;

/** §2.2 / §15.5: refresh at this fraction of expires_in. */
export const TOKEN = { refreshAtFraction: 0.8, defaultExpiresInS: 600 } as const;

/** §8.4: what the client retries. Reads only; uploads are decided by the engine. */
export const RETRY = {
  retryableStatus: [429, 500, 502, 503, 504] as readonly number[],
  neverRetryStatus: [400, 401, 403, 404, 409] as readonly number[],
  baseDelayMs: 250,
  maxDelayMs: 30_000,
  maxAttempts: 5,
  /** A Retry-After longer than this is shortened to it: the client must not block a call for
   * minutes; the error keeps the full retryAfterMs for the engine. */
  retryAfterCapMs: 60_000,
  /** Low-level failures where the request may be replayed. Refused connections and DNS failures
   * are left to the engine: they are configuration problems far more often than blips. */
  retryableNetworkCodes: [
    'ECONNRESET',
    'EPIPE',
    'ETIMEDOUT',
    'UND_ERR_SOCKET',
    'UND_ERR_CLOSED',
    'UND_ERR_CONNECT_TIMEOUT',
    'UND_ERR_HEADERS_TIMEOUT',
    'UND_ERR_BODY_TIMEOUT',
  ] as readonly string[],
} as const;

/** Per-operation timeouts of the client (export may block for minutes on long media, §15.4). */
export const TIMEOUTS_MS = {
  read: 30_000,
  cancel: 30_000,
  usage: 60_000,
  export: 10 * 60_000,
  token: 30_000,
  configuration: 30_000,
  /** TCP/TLS connection establishment, for every operation. */
  connect: 10_000,
  /** Upload: no overall limit (4 GB files), only inactivity between chunks / before the answer. */
  uploadIdle: 120_000,
} as const;

/** How much of a non-JSON error body (proxy page) is kept in a ServiceError. */
export const ERROR_EXCERPT_CHARS = 200;

/** §2.2 token endpoint path under API_PREFIX.auth. */
export const TOKEN_PATH = '/token';

/** §4.2 + auth parameters: query keys that are not patches; a patch with such a name is sent as `patches.<name>`. */
export const RESERVED_UPLOAD_KEYS: readonly string[] = [
  'streamConfigurationTemplateId',
  'id',
  'name',
  'groupId',
  'persist',
  'persistTags',
  'matchPersistTags',
  'webhook',
  'access_token',
  'client_id',
  'client_secret',
];

/** §9.5 sandbox timeline defaults. */
export const SANDBOX = {
  /** Simulated processing time = media duration × speedFactor. */
  defaultSpeedFactor: 0.05,
  /** Lower bound of simulated processing, so even tiny files pass through READY. */
  minProcessingMs: 50,
  creatorId: 'sandbox-user-0000-0000-000000000001',
  apiKey: 'sandbox-key',
  clientId: 'sandbox-client',
  clientSecret: 'sandbox-secret',
  tokenExpiresInS: 600,
  /** Label put in every simulated transcript (results are visibly simulated). */
  simulatedNotice: 'This transcript was produced by the Sluice sandbox and is simulated.',
} as const;

/** Sandbox choices beyond §17 (listed in main/sandbox/index.ts). */
export const SANDBOX_BEHAVIOUR = {
  /** C21: Retry-After (seconds) on injected 429/503 when the fault sets none, and on the concurrency ceiling. */
  defaultRetryAfterS: 1,
  /** §6.6 "speechless": valid media shorter than this has no speech... */
  minSpeechMs: 300,
  /** ...nor has a 16-bit PCM WAV whose peak stays below this fraction of full scale. */
  silencePeak: 0.01,
} as const;
