// The SluiceClient facade: one object per connection (URLs + credentials), one method per operation.
import { inspect } from 'node:util';
import { ApiKeyAuth, TokenAuth, type Credentials } from './auth.js';
import { ConfigurationApi, type JsonPatchOperation, type ListTemplatesOptions } from './configuration.js';
import { inputError } from './error-mapping.js';
import { ExportApi, type ExportOptions, type ExportOutcome } from './export.js';
import { GatewayApi, type UploadOptions } from './gateway.js';
import { HttpCore, type ServiceUrls, type Timeouts } from './http.js';
import { PRODUCTION_URLS, type ServiceName } from '../service/policy.js';
import { SERVICE_NAMES } from '../../common/service-names.js';
import { defaultRetryDeps, type RetryDeps } from './retry.js';
import { StreamsApi, type CallOptions, type CancelResult, type ListStreamsOptions } from './streams.js';
import type {
  Page,
  StreamComponentsDto,
  StreamConfigurationTemplateDto,
  StreamDto,
  StreamUsageDto,
  UsageReportDto,
} from '../service/types.js';
import { UsageApi, type UsageReportOptions } from './usage.js';

export interface ClientOptions {
  credentials: Credentials;
  /** One origin for every service (the sandbox); C1. */
  baseUrl?: string;
  /** Per-service origins; win over baseUrl. Unset ones fall back to baseUrl, then PRODUCTION_URLS. */
  urls?: Partial<ServiceUrls>;
  userAgent?: string;
  /** Overrides of TIMEOUTS_MS (tests, slow links). */
  timeouts?: Partial<Timeouts>;
  /** Injected for tests: backoff sleep, jitter source, clock (token expiry, Retry-After dates). */
  sleep?: RetryDeps['sleep'];
  random?: RetryDeps['random'];
  now?: RetryDeps['now'];
}

function normaliseUrl(service: ServiceName, raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw inputError('configure client', `The ${service} URL is not a valid URL.`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw inputError('configure client', `The ${service} URL must start with http:// or https:// (got ${u.protocol}).`);
  }
  // Credentials in a URL end up in logs and error messages (§15.5): refuse rather than strip.
  if (u.username || u.password) {
    throw inputError(
      'configure client',
      `The ${service} URL must not contain a user name or password; use the credentials option.`,
    );
  }
  if (u.search || u.hash) throw inputError('configure client', `The ${service} URL must not have a query or fragment.`);
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

export function resolveUrls(opts: Pick<ClientOptions, 'baseUrl' | 'urls'>): ServiceUrls {
  return Object.fromEntries(
    SERVICE_NAMES.map((s) => [s, normaliseUrl(s, opts.urls?.[s] ?? opts.baseUrl ?? PRODUCTION_URLS[s])]),
  ) as ServiceUrls;
}

export class SluiceClient {
  readonly urls: Readonly<ServiceUrls>;
  readonly #core: HttpCore;
  readonly #auth: ApiKeyAuth | TokenAuth;
  readonly #gateway: GatewayApi;
  readonly #streams: StreamsApi;
  readonly #export: ExportApi;
  readonly #usage: UsageApi;
  readonly #configuration: ConfigurationApi;

  constructor(opts: ClientOptions) {
    this.urls = Object.freeze(resolveUrls(opts));
    const deps: RetryDeps = {
      sleep: opts.sleep ?? defaultRetryDeps.sleep,
      random: opts.random ?? defaultRetryDeps.random,
      now: opts.now ?? defaultRetryDeps.now,
    };
    this.#core = new HttpCore(this.urls, deps, opts.userAgent, opts.timeouts);
    const c = opts.credentials;
    if (c?.kind === 'apiKey') this.#auth = new ApiKeyAuth(c.apiKey);
    else if (c?.kind === 'clientCredentials') this.#auth = new TokenAuth(c.clientId, c.clientSecret, this.#core);
    else throw inputError('configure client', 'Credentials are required: an API key, or a client id and secret.');
    this.#core.setAuth(this.#auth);
    this.#gateway = new GatewayApi(this.#core);
    this.#streams = new StreamsApi(this.#core);
    this.#export = new ExportApi(this.#core);
    this.#usage = new UsageApi(this.#core);
    this.#configuration = new ConfigurationApi(this.#core);
  }

  get authKind(): Credentials['kind'] {
    return this.#auth instanceof TokenAuth ? 'clientCredentials' : 'apiKey';
  }

  /** Tokens fetched so far (client-credentials mode; 0 with an API key). */
  get tokenFetches(): number {
    return this.#auth instanceof TokenAuth ? this.#auth.tokenFetches : 0;
  }

  upload(opts: UploadOptions): Promise<StreamDto> {
    return this.#gateway.upload(opts);
  }

  findStream(streamId: string, opts?: CallOptions): Promise<StreamDto> {
    return this.#streams.find(streamId, opts);
  }

  listStreams(opts?: ListStreamsOptions): Promise<Page<StreamDto>> {
    return this.#streams.list(opts);
  }

  iterateStreams(opts?: Omit<ListStreamsOptions, 'page'>): AsyncGenerator<StreamDto> {
    return this.#streams.iterate(opts);
  }

  cancelStream(streamId: string, opts?: CallOptions): Promise<CancelResult> {
    return this.#streams.cancel(streamId, opts);
  }

  streamComponents(streamId: string, opts?: CallOptions): Promise<StreamComponentsDto> {
    return this.#streams.components(streamId, opts);
  }

  exportJson(streamId: string, opts?: ExportOptions): Promise<ExportOutcome> {
    return this.#export.json(streamId, opts);
  }

  usageReport(opts?: UsageReportOptions): Promise<UsageReportDto> {
    return this.#usage.report(opts);
  }

  streamUsage(streamId: string, opts?: CallOptions & { currency?: string }): Promise<StreamUsageDto> {
    return this.#usage.stream(streamId, opts);
  }

  listTemplates(opts?: ListTemplatesOptions): Promise<Page<StreamConfigurationTemplateDto>> {
    return this.#configuration.list(opts);
  }

  /** Every template the account may use (all pages). */
  iterateTemplates(opts?: Omit<ListTemplatesOptions, 'page'>): AsyncGenerator<StreamConfigurationTemplateDto> {
    return this.#configuration.iterate(opts);
  }

  getTemplate(templateId: string, opts?: CallOptions): Promise<StreamConfigurationTemplateDto> {
    return this.#configuration.template(templateId, opts);
  }

  previewTemplate(
    templateId: string,
    patches: ReadonlyArray<JsonPatchOperation | readonly JsonPatchOperation[]>,
    opts?: CallOptions,
  ): Promise<StreamConfigurationTemplateDto> {
    return this.#configuration.preview(templateId, patches, opts);
  }

  /** The cheap credentials check the automation node uses (§15.5): one stream, any state. */
  async testConnection(opts?: CallOptions): Promise<void> {
    await this.#streams.list({ size: 1, signal: opts?.signal });
  }

  async close(): Promise<void> {
    await this.#core.close();
  }

  toJSON(): Record<string, unknown> {
    return { urls: this.urls, auth: this.authKind };
  }

  [inspect.custom](): string {
    return `SluiceClient ${inspect(this.toJSON())}`;
  }
}

export function createClient(opts: ClientOptions): SluiceClient {
  return new SluiceClient(opts);
}
