// Defaults that Settings shows and main applies: one number each.

/** How long a copied file's size and time must stay the same before it is taken (local disks). */
export const DEFAULT_SETTLE_MS = 2000;

/** How long a shared folder's claim holds without its computer renewing it before another takes over. */
export const DEFAULT_CLAIM_TIMEOUT_S = 600;

/** A claim timeout long enough for NAS attribute caches (up to 60 s) and a missed refresh; at most a day. */
export const CLAIM_TIMEOUT_LIMITS_S = { min: 5, max: 86_400 } as const;
