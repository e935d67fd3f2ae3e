// Lenient checks of 2xx bodies: only the fields the client relies on are checked, unknown keys are
// kept (the service may add fields; §6.6 wants exports saved whole), null and absent are both fine.
import { z } from 'zod';
import { ServiceError } from '../service/errors.js';
import type {
  Page,
  StreamComponentsDto,
  StreamConfigurationTemplateDto,
  StreamDto,
  StreamUsageDto,
  TokenResponse,
  UsageReportDto,
} from '../service/types.js';

const nullableString = z.string().nullish();

const stream = z.looseObject({
  streamId: z.string(),
  state: z.string(),
  name: nullableString,
  groupId: nullableString,
  stateDescription: nullableString,
  finalizedTimestamp: nullableString,
});

const page = z.looseObject({
  content: z.array(stream),
  number: z.number(),
  size: z.number(),
  last: z.boolean(),
  totalElements: z.number().optional(),
});

const components = z.looseObject({
  streamId: z.string(),
  state: z.string(),
  gateway: z.looseObject({ state: z.string() }).nullish(),
  processors: z.array(z.looseObject({ processorId: z.string(), state: z.string(), stateDescription: nullableString })),
});

const usageReport = z.looseObject({
  startTimestamp: z.number(),
  endTimestamp: z.number(),
  aggregatedMeasurements: z.array(z.looseObject({ credits: z.string() })).nullish(),
});

const streamUsage = z.looseObject({ streamId: z.string(), processors: z.array(z.looseObject({})).nullish() });

const token = z.looseObject({ access_token: z.string().min(1), expires_in: z.coerce.number().optional().default(0) });

const template = z.looseObject({ id: z.string(), processors: z.array(z.looseObject({ id: z.string() })).nullish() });

const templatePage = z.looseObject({
  content: z.array(template),
  number: z.number(),
  size: z.number(),
  last: z.boolean(),
});

const exportResult = z.looseObject({});

function malformed(what: string, where: string, detail: string): ServiceError {
  return new ServiceError({
    kind: 'http',
    statusCode: 200,
    // A 200 that is not the service's JSON is most often a proxy or captive portal: worth retrying later.
    classHint: 'transient',
    message: `${where} answered 200 but the body is not ${what} (${detail}).`,
  });
}

function parseWith<T>(schema: z.ZodType, body: Buffer | string, what: string, where: string): T {
  let json: unknown;
  try {
    json = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    throw malformed(what, where, 'not JSON');
  }
  const r = schema.safeParse(json);
  if (!r.success) throw malformed(what, where, r.error.issues[0]?.path.join('.') || 'unexpected shape');
  return r.data as T;
}

// The typed views below cast after the lenient check: the wire type (types.ts) is the contract,
// the check guards only what the client itself dereferences.
export const parseStream = (b: Buffer, where: string): StreamDto => parseWith(stream, b, 'a stream record', where);
export const parsePage = (b: Buffer, where: string): Page<StreamDto> => parseWith(page, b, 'a page of streams', where);
export const parseComponents = (b: Buffer, where: string): StreamComponentsDto =>
  parseWith(components, b, 'stream components', where);
export const parseUsageReport = (b: Buffer, where: string): UsageReportDto =>
  parseWith(usageReport, b, 'a usage report', where);
export const parseStreamUsage = (b: Buffer, where: string): StreamUsageDto =>
  parseWith(streamUsage, b, 'a stream usage record', where);
export const parseToken = (b: Buffer, where: string): TokenResponse => parseWith(token, b, 'a token response', where);
export const parseTemplate = (b: Buffer, where: string): StreamConfigurationTemplateDto =>
  parseWith(template, b, 'a configuration template', where);
export const parseTemplatePage = (b: Buffer, where: string): Page<StreamConfigurationTemplateDto> =>
  parseWith(templatePage, b, 'a page of configuration templates', where);
export const parseExport = (text: string, where: string): Record<string, unknown> =>
  parseWith(exportResult, text, 'an export result', where);
