// Display formatting shared by every screen. Numbers use tabular figures in CSS; these helpers only
// pick units, so that "1.2 GB" and "340 KB/s" read the same everywhere.

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes == null || !Number.isFinite(bytes)) return '—';
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}

export function formatSpeed(bytesPerSecond: number | null | undefined): string {
  if (bytesPerSecond == null || !Number.isFinite(bytesPerSecond) || bytesPerSecond <= 0) return '—';
  return `${formatBytes(bytesPerSecond)}/s`;
}

/**
 * 75 s → "1:15", 3725 s → "1:02:05": elapsed clocks must not jump width every second. Under a
 * second (a short bite, a quick job) in tenths, "0.6 s", rather than a "0:00" that reads as nothing.
 */
export function formatClock(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms) || ms < 0) return '—';
  if (ms > 0 && ms < 1000) return `0.${Math.min(9, Math.max(1, Math.round(ms / 100)))} s`;
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Human duration for totals and ETAs: "45 s", "12 min", "3 h 20 min". */
export function formatDuration(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms) || ms < 0) return '—';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  const rest = m % 60;
  return rest ? `${h} h ${rest} min` : `${h} h`;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

export function formatDateTime(at: number | string | null | undefined): string {
  if (at == null) return '—';
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return '—';
  const today = new Date();
  if (d.toDateString() === today.toDateString()) return `Today ${timeOnly.format(d)}`;
  return dateTime.format(d);
}

const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

export function formatNumber(n: number | null | undefined, fractional = false): string {
  if (n == null || !Number.isFinite(n)) return '—';
  return (fractional ? decimal : integer).format(n);
}

export function percent(done: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.min(100, Math.max(0, (done / total) * 100));
}

/** `<input type="date">` value for a timestamp, in local time. */
export function toDateInput(at: number): string {
  const d = new Date(at);
  const mm = String(d.getMonth() + 1).padStart(2, '0');
  const dd = String(d.getDate()).padStart(2, '0');
  return `${d.getFullYear()}-${mm}-${dd}`;
}

/**
 * One file's cost: small amounts keep their digits (a prompt costs fractions of a cent), in the
 * currency's own sign ("€0.0012"), or "0.013 credits" without one.
 */
export function formatAmount(amount: string, currency: string | null): string {
  const n = Number(amount);
  if (!Number.isFinite(n)) return amount;
  if (!currency) return `${new Intl.NumberFormat(undefined, { maximumFractionDigits: 6 }).format(n)} credits`;
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency, maximumFractionDigits: 6 }).format(n);
  } catch {
    return `${new Intl.NumberFormat(undefined, { maximumFractionDigits: 6 }).format(n)} ${currency}`;
  }
}
