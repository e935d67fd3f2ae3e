// THE contract between main and the renderer: every request (`domain:verb` → params → result),
// every event (`noun:past-participle` → payload), the error codes and the view types. Both
// transports (Electron IPC and the web bridge) carry exactly this. Nothing outside preload/contract/
// is imported: the sandboxed preload bundles it and the renderer type-checks against it without
// seeing main/.
// Note: only ADD to the contract; the renderer is written against it.
// The parts live in contract/, one file per concern; this file re-exports them all, so every
// import of `preload/contract` sees one module.
export * from './contract/errors.js';
export * from './contract/shared.js';
export * from './contract/queue.js';
export * from './contract/settings.js';
export * from './contract/folders.js';
export * from './contract/history.js';
export * from './contract/usage.js';
export * from './contract/transcripts.js';
export * from './contract/selects.js';
export * from './contract/requests.js';
export * from './contract/events.js';
export * from './contract/bridge.js';
export * from './contract/constants.js';
