// Dynamic webhooks of an upload (§10.5, C25): validated and recorded in the configuration.
// Sandbox choice: events are not delivered (a desktop client cannot receive them anyway).
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { LIMITS } from '../service/policy.js';
import type { WebhookEndpointDto } from '../service/types.js';
import { SandboxHttpError } from './http-error.js';
import { isWebhookKey } from './patch-grammar.js';

const EVENTS: Record<string, readonly string[]> = {
  stream: ['ready', 'completed', 'failed', 'expired'],
  group: ['created', 'completed', 'failed', 'expired', 'stream-joined'],
};

const bad = (message: string): SandboxHttpError =>
  new SandboxHttpError(400, 'WEBHOOK_CONFIGURATION_ERROR', message, { title: 'Invalid webhook configuration' });

/** `*`, `stream.*`, `stream.completed`, ... */
function checkEvent(key: string): string {
  if (key === '*') return key;
  const [resource, state, ...rest] = key.split('.');
  const states = resource === undefined ? undefined : EVENTS[resource];
  if (!states || rest.length > 0) throw bad(`Unsupported webhook event: ${key}`);
  if (state === undefined || state === '*') return `${resource}.*`;
  if (!states.includes(state)) throw bad(`Unsupported webhook event: ${key}`);
  return key;
}

function isLocalHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local')) return true;
  const v = isIP(h);
  if (v === 4) {
    const [a = 0, b = 0] = h.split('.').map(Number);
    return (
      a === 127 ||
      a === 10 ||
      a === 0 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (v === 6)
    return (
      h === '::1' ||
      h === '::' ||
      h.startsWith('fc') ||
      h.startsWith('fd') ||
      h.startsWith('fe80') ||
      h.startsWith('::ffff:')
    );
  return false;
}

function checkUrl(raw: string, allowLocal: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw bad(`Invalid webhook URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad(`Webhook URL must be http or https: ${raw}`);
  if (!allowLocal && isLocalHost(url.hostname)) throw bad(`Local addresses are not allowed for webhooks: ${raw}`);
  return raw;
}

/**
 * Merges query keys (`webhook`, `webhook.stream`, `webhook.stream.completed` → URL values) and the
 * multipart map (URL → event keys) into one endpoint per URL.
 */
export function collectWebhooks(
  query: Map<string, string[]>,
  multipart: unknown,
  allowLocal: boolean,
): WebhookEndpointDto[] {
  const byUrl = new Map<string, Set<string>>();
  const add = (url: string, event: string): void => {
    const key = checkUrl(url, allowLocal);
    const set = byUrl.get(key) ?? new Set<string>();
    set.add(checkEvent(event));
    byUrl.set(key, set);
  };
  for (const [key, urls] of query) {
    if (!isWebhookKey(key)) continue;
    const event = key === 'webhook' ? '*' : key.slice('webhook.'.length);
    for (const url of urls) add(url, event);
  }
  if (multipart !== undefined && multipart !== null) {
    if (typeof multipart !== 'object' || Array.isArray(multipart)) throw bad('`webhook` must map URLs to event lists');
    for (const [url, events] of Object.entries(multipart as Record<string, unknown>)) {
      const list = Array.isArray(events) ? events : [events];
      if (list.length === 0) throw bad(`No events for webhook ${url}`);
      for (const e of list) {
        if (typeof e !== 'string') throw bad(`Invalid event for webhook ${url}`);
        add(url, e);
      }
    }
  }
  if (byUrl.size > LIMITS.dynamicWebhooksPerStream) {
    throw bad(`At most ${LIMITS.dynamicWebhooksPerStream} dynamic webhooks per stream`);
  }
  return [...byUrl].map(([url, events]) => ({
    id: randomUUID(),
    url,
    events: [...events],
    enabled: true,
    description: null,
  }));
}
