// The services of the cloud contract (../shared/service-contract.md §1), named once: the client's
// origins and prefixes (main/service/policy.ts), the saved connection's per-service addresses, the
// bridge's checks of them and the Settings fields that edit them all take their names from here.
// Pure: no node:*, no DOM, no packages.

export const SERVICE_NAMES = ['gateway', 'stream', 'export', 'usage', 'configuration', 'auth'] as const;

export type ServiceName = (typeof SERVICE_NAMES)[number];

/** Each service as Settings names its address field. */
export const SERVICE_LABELS: Readonly<Record<ServiceName, string>> = {
  gateway: 'Gateway (uploads)',
  stream: 'Streams',
  export: 'Export',
  usage: 'Usage',
  configuration: 'Templates (configuration)',
  auth: 'Token (client credentials)',
};

/** One entry per service, each `value` (a schema's per-service address field). */
export function perService<T>(value: T): Record<ServiceName, T> {
  return Object.fromEntries(SERVICE_NAMES.map((n) => [n, value])) as Record<ServiceName, T>;
}
