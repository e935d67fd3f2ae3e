// The two parts of undici the client uses, an Agent and its request call, loaded on their own.
// undici's package root evaluates all of undici (fetch, WebSocket, EventSource, caches, mocks):
// 970 KB of the command's one-file build, compiled and run by every command that talks to a service.
// These two modules bring 470 KB (measured: a 1 KB WAV end to end 1.17 s instead of 1.25 s,
// interleaved medians of 11). The version is pinned exactly in package.json, so these paths are
// the ones read and typed here; test/api covers every call through them against a real server.
import type { Agent as AgentType, Dispatcher } from 'undici';
import AgentClass from 'undici/lib/dispatcher/agent.js';
import requestOn from 'undici/lib/api/api-request.js';

export const Agent: typeof AgentType = AgentClass;
export type Agent = AgentType;
export type { Dispatcher };

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher };

/** undici's `request(url, options)`, always through the given dispatcher. */
export function request(url: string, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const u = new URL(url);
  return requestOn.call(options.dispatcher, {
    ...options,
    origin: u.origin,
    path: `${u.pathname}${u.search}`,
  });
}
