// The frame rates an editor picks from, by the names NLEs show (`df` = drop-frame counting), and
// how the app names them. Their rationals and arithmetic are main's (main/engine/timecode/rates.ts).

export const RATE_IDS = ['23.976', '24', '25', '29.97', '29.97df', '30', '50', '59.94', '59.94df', '60'] as const;
export type RateId = (typeof RATE_IDS)[number];

/** Europe's broadcast rate: what a file with no rate of its own is counted in unless a folder says otherwise. */
export const DEFAULT_RATE_ID: RateId = '25';

export const isRateId = (s: string): s is RateId => (RATE_IDS as readonly string[]).includes(s);

/** "29.97 drop-frame", "25 fps". */
export const rateName = (r: RateId): string => (r.endsWith('df') ? `${r.slice(0, -2)} drop-frame` : `${r} fps`);
