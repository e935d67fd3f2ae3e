// Public surface of the typed client.
export { createClient, resolveUrls, SluiceClient, type ClientOptions } from './client.js';
export type { Credentials } from './auth.js';
export type { CallOptions, CancelResult, ListStreamsOptions } from './streams.js';
export type { ExportOptions, ExportOutcome } from './export.js';
export type { UploadOptions } from './gateway.js';
export type { UsageReportOptions } from './usage.js';
export type { JsonPatchOperation, ListTemplatesOptions } from './configuration.js';
export type { ParamScalar, ParamValue } from './query.js';
export type { ServiceUrls } from './http.js';
export {
  ServiceError,
  classifyError,
  isServiceError,
  type ErrorClass,
  type ServiceErrorKind,
} from '../service/errors.js';
export * from '../service/types.js';
