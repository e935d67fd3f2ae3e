// One engine start-up in a fresh process (so one measurement's garbage is not another's): prints
// the time to ready and, after a full GC, heap and RSS. Run with --expose-gc.
import { Runtime } from '../../dist/main/runtime/runtime.js';
import { KEY } from './common.js';

const [dir] = process.argv.slice(2);
const t0 = performance.now();
const rt = await Runtime.open({
  stateDir: dir,
  connection: { baseUrl: 'http://127.0.0.1:9' },
  credentials: { kind: 'apiKey', apiKey: KEY },
});
await rt.start();
const readyMs = performance.now() - t0;
globalThis.gc?.();
globalThis.gc?.();
const { heapUsed, rss } = process.memoryUsage();
// Counted after measuring: the scan's garbage must not be measured.
const history = rt.queue.jobs().length + (rt.store.archived?.rows().filter((r) => !rt.store.isHot(r.i)).length ?? 0);
await rt.close();
process.stdout.write(`${JSON.stringify({ readyMs, heapUsed, rss, history, hot: rt.queue.jobs().length })}\n`);
