// How far V8 lets the heap grow past what the last full collection kept: by default up to four
// times it, chosen from how fast collections ran against the program. A 100,000-file start keeps
// some 90 MB alive after its walk; in one start of four, V8 then let 120 MB of garbage pile up
// before collecting again, and the process peaked at 365-390 MB instead of 230-250. Half again
// as much bounds that peak at no measured cost in speed (npm run bench: the scan rows).
import v8 from 'node:v8';

/** The growing factor, as V8's percent: 1.5 times the live heap. */
export const HEAP_GROWING_PERCENT = 50;

let bounded = false;

/** Sets the bound for this process, once; a Sluice process opens its runtime before its heap grows. */
export function boundHeapGrowth(): void {
  if (bounded) return;
  bounded = true;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
