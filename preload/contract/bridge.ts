// The bridge as the renderer sees it (`window.api`), and the web upload's answer.
// Part of the contract (../contract.ts re-exports every part): no imports but its siblings.
import type { Result } from './errors.js';
import type { EventName, Events } from './events.js';
import type { AddOutcomeView } from './queue.js';
import type { Channel, NoParams, ParamsOf, ResultOf } from './requests.js';
import type { Platform } from './shared.js';

// ---- the bridge as the renderer sees it ----------------------------------------------------------

type Camel<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;
type DomainOf<C extends string> = C extends `${infer D}:${string}` ? D : never;
type VerbOf<C extends string, D extends string> = C extends `${D}:${infer V}` ? V : never;
export type SubscriptionName<E extends string> = E extends `${infer N}:${infer V}`
  ? `on${Capitalize<Camel<N>>}${Capitalize<Camel<V>>}`
  : never;

type Method<C extends Channel> =
  NoParams extends ParamsOf<C>
    ? (params?: ParamsOf<C>) => Promise<Result<ResultOf<C>>>
    : (params: ParamsOf<C>) => Promise<Result<ResultOf<C>>>;

/** `api.queue.retry({ id })`, `api.onJobUpdated(cb)` (returns unsubscribe), `api.files.pathForFile(file)`. */
export type BridgeApi = {
  [D in DomainOf<Channel>]: { [V in VerbOf<Channel, D>]: Method<`${D}:${V}` & Channel> };
} & {
  [E in EventName as SubscriptionName<E>]: (listener: (payload: Events[E]) => void) => () => void;
} & {
  platform: Platform;
  /** Electron: the path of a dropped File (webUtils.getPathForFile); undefined in the browser. */
  files: { pathForFile(file: unknown): string | undefined };
};

/** What `POST /api/queue:upload` answers: one outcome per uploaded file (queued as manual jobs). */
export type UploadResult = Result<AddOutcomeView[]>;

/** 'job:updated' → 'onJobUpdated', 'queue:snapshot-changed' → 'onQueueSnapshotChanged'. */
export function subscriptionName<E extends EventName>(event: E): SubscriptionName<E> {
  const camel = (s: string): string => s.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
  const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
  const [noun = '', verb = ''] = event.split(':');
  return `on${cap(camel(noun))}${cap(camel(verb))}` as SubscriptionName<E>;
}
