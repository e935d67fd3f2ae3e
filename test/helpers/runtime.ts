// A Runtime for a test: polling in tens of milliseconds, on the embedded sandbox unless a running
// one is named, and closed by `closeRuntimes()` in the file's afterEach (every one it opened).
import type { EngineContext } from '../../main/engine/reducer.js';
import type { RuntimeOptions } from '../../main/runtime/options.js';
import { Runtime } from '../../main/runtime/runtime.js';

/** Polls a stream every 50–200 ms instead of seconds. */
export const FAST_POLL: EngineContext['poll'] = { initialMs: 50, maxMs: 200, factor: 1.5, flatMs: 0 };

export interface TestRuntimeOptions extends Omit<RuntimeOptions, 'connection'> {
  /** A sandbox started by the test (its URL and key); absent: the runtime's own embedded one. */
  sandbox?: { url: string; apiKey: string };
  /** Started before it is returned (default); `{ watch: true }` watches the folders too. */
  start?: boolean | { watch: true };
}

const opened: Runtime[] = [];

export async function openRuntime(o: TestRuntimeOptions): Promise<Runtime> {
  const { sandbox, start = true, ...rest } = o;
  const rt = await Runtime.open({
    ...(sandbox
      ? { connection: { baseUrl: sandbox.url }, credentials: { kind: 'apiKey', apiKey: sandbox.apiKey } }
      : { connection: { sandbox: true }, sandboxOptions: { speedFactor: 0.01 }, watchEvents: false }),
    ...rest,
    ctx: { poll: FAST_POLL, ...rest.ctx },
  });
  opened.push(rt);
  if (start) await rt.start(start === true ? {} : start);
  return rt;
}

/** Closes every runtime `openRuntime` opened, a failing close not hiding the others. */
export async function closeRuntimes(): Promise<void> {
  for (const rt of opened.splice(0)) await rt.close().catch(() => undefined);
}

/** Closes one now (a restart within a test); `closeRuntimes` then leaves it be. */
export async function closeRuntime(rt: Runtime): Promise<void> {
  const i = opened.indexOf(rt);
  if (i >= 0) opened.splice(i, 1);
  await rt.close();
}
