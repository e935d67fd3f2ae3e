// What every domain's handlers share, and the shape of a handler before it is wrapped into a
// Result (handlers throw BridgeFailure or any error; `createHandlers` turns that into a Result).
import type { AppInfo, Channel, ParamsOf, ResultOf } from '../../preload/contract.js';
import { refusal, type JobAction } from '../engine/eligibility.js';
import { templateProblems } from '../engine/params.js';
import type { TemplateCatalogue } from '../service/template-catalogue.js';
import type { Params } from '../engine/settings.js';
import type { JobRecord } from '../engine/job.js';
import type { Services } from '../runtime/services.js';
import { setAsideNotice } from '../adapters/store/state/settings-store.js';
import { conflict, notFound, validation } from './errors.js';
import type { BridgeEvent } from './event-stream.js';
import type { PlatformPort } from './platform.js';
import type { QueueModel } from './queue-model.js';

/** The runtime's services a domain's handlers take (`K`), and what every handler shares. */
export type HandlerContext<K extends keyof Services = keyof Services> = Pick<Services, K> & HandlerShared;

export interface HandlerShared {
  platform: PlatformPort;
  model: QueueModel;
  publish(e: BridgeEvent): void;
  /** Publishes `settings:changed` with the current view (credentials included). */
  settingsChanged(): Promise<void>;
}

export type RawHandler<C extends Channel> = (params: ParamsOf<C>) => Promise<ResultOf<C>> | ResultOf<C>;
export type RawHandlers<K extends Channel = Channel> = { [C in K]: RawHandler<C> };

/** What `app:info` answers and `connection:changed` carries. */
export function appInfo(
  connection: Services['connection'],
  platform: PlatformPort,
  settings?: Pick<Services['settings'], 'setAside'>,
): AppInfo {
  const setAside = settings?.setAside;
  return {
    ...(setAside ? { settingsSetAside: setAsideNotice(setAside) } : {}),
    version: platform.version,
    platform: platform.kind,
    simulated: connection.simulated,
    connection: connection.label,
    os: process.platform,
    startAtLoginSupported: platform.startAtLogin !== undefined,
  };
}

export function requireJob(queue: Pick<Services['queue'], 'job'>, id: string): JobRecord {
  const job = queue.job(id);
  if (!job) throw notFound('This job');
  return job;
}

/** The job, when the engine says `action` applies to it; otherwise NOT_FOUND or CONFLICT saying why. */
export function requireEligible(queue: Pick<Services['queue'], 'job'>, id: string, action: JobAction): JobRecord {
  const job = requireJob(queue, id);
  const why = refusal(job, action);
  if (why) throw conflict(why);
  return job;
}

/**
 * Template and parameters checked (by the engine, against the account's catalogue as last read:
 * the screens that choose a template read it first) before anything is queued or saved, as field errors.
 */
export function checkTemplate(catalogue: TemplateCatalogue, templateId: string, params: Params, at: string): void {
  const problems = templateProblems(templateId, params, catalogue);
  if (problems.length > 0) throw validation(problems.map((p) => ({ path: `${at}${p.field}`, message: p.detail })));
}
