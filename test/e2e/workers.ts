// How many browser flows run at once: each worker has its own `sluice serve`, sandbox and state
// (global-setup.ts), so two specs never share a queue. SLUICE_E2E_WORKERS overrides it.
export const E2E_WORKERS = Number(process.env.SLUICE_E2E_WORKERS) || 2;
