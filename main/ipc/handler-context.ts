// What every domain's handlers share, and the shape of a handler before it is wrapped into a
// Result (handlers throw BridgeFailure or any error; `createHandlers` turns that into a Result).
import type { AppInfo, Channel, ParamsOf, ResultOf } from '../../preload/contract.js';
import { findTemplate } from '../service/templates.js';
import { validateParams } from '../engine/params.js';
import type { Params } from '../engine/settings.js';
import type { JobRecord } from '../engine/job.js';
import type { Runtime } from '../runtime.js';
import { notFound, validation } from './errors.js';
import type { BridgeEvent } from './event-stream.js';
import type { PlatformPort } from './platform.js';
import type { QueueModel } from './queue-model.js';

export interface HandlerContext {
  rt: Runtime;
  platform: PlatformPort;
  model: QueueModel;
  publish(e: BridgeEvent): void;
  /** Publishes `settings:changed` with the current view (credentials included). */
  settingsChanged(): Promise<void>;
}

export type RawHandler<C extends Channel> = (params: ParamsOf<C>) => Promise<ResultOf<C>> | ResultOf<C>;
export type RawHandlers<K extends Channel = Channel> = { [C in K]: RawHandler<C> };

/** What `app:info` answers and `connection:changed` carries. */
export function appInfo(rt: Runtime, platform: PlatformPort): AppInfo {
  return {
    version: platform.version,
    platform: platform.kind,
    simulated: rt.simulated,
    connection: rt.connectionLabel,
    os: process.platform,
    startAtLoginSupported: platform.startAtLogin !== undefined,
  };
}

export function requireJob(rt: Runtime, id: string): JobRecord {
  const job = rt.job(id);
  if (!job) throw notFound('This job');
  return job;
}

/** Template and parameters checked before anything is queued or saved, as field errors. */
export function checkTemplate(templateId: string, params: Params, at: string): void {
  const template = findTemplate(templateId);
  if (!template) throw validation([{ path: `${at}templateId`, message: `There is no template ${templateId}.` }]);
  const problems = validateParams(template, params);
  if (problems.length > 0) {
    throw validation(
      problems.map((p) => {
        const name = p.slice(0, p.indexOf(':'));
        return { path: `${at}params.${name}`, message: p.slice(name.length + 1).trim() };
      }),
    );
  }
}
