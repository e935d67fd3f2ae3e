// The few browser functions the state classes call, for Node: a frame is 16 ms, and page events
// (pagehide) never fire. Imported before any state module.
const g = globalThis as Record<string, unknown>;
g.requestAnimationFrame ??= (f: (t: number) => void): unknown => setTimeout(() => f(performance.now()), 16);
g.cancelAnimationFrame ??= (id: ReturnType<typeof setTimeout>): void => clearTimeout(id);
g.addEventListener ??= (): void => undefined;
export {};
