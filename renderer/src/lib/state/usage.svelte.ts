// Usage report: the range, granularity and currency the user picked, and the report main fetched
// for them. Errors the service raises about a field (interval too long for HOURS, unknown currency)
// are kept per field so the screen can print them next to that field.
import type { BridgeError, Granularity, UsageQuery, UsageView } from '../../../../preload/contract';
import { call } from '../api';
import { toDateInput } from '../format';
import type { FieldErrors } from './settings.svelte';
import { fieldErrors, settings } from './settings.svelte';

export interface UsageForm {
  /** `<input type="date">` values, local time; the end day is inclusive. */
  start: string;
  end: string;
  granularity: Granularity;
  /** '' = credits. */
  currency: string;
}

function monthStart(): string {
  const d = new Date();
  return toDateInput(new Date(d.getFullYear(), d.getMonth(), 1).getTime());
}

class UsageState {
  #form = $state.raw<UsageForm>({
    start: monthStart(),
    end: toDateInput(Date.now()),
    granularity: 'DAYS',
    currency: '',
  });
  #report = $state.raw<UsageView | null>(null);
  #loading = $state(false);
  #errors = $state.raw<FieldErrors>({});
  #error = $state.raw<BridgeError | null>(null);
  #exporting = $state(false);
  /** This month in credits, whatever range is on screen: the spending guard counts calendar months. */
  #month = $state.raw<UsageView | null>(null);
  /** The same month in the chosen currency, so the guard speaks the unit the screen shows. */
  #monthAmount = $state.raw<UsageView | null>(null);
  #seq = 0;
  #monthSeq = 0;

  get month(): UsageView | null {
    return this.#month;
  }
  get monthAmount(): UsageView | null {
    return this.#monthAmount;
  }

  get form(): UsageForm {
    return this.#form;
  }
  get report(): UsageView | null {
    return this.#report;
  }
  get loading(): boolean {
    return this.#loading;
  }
  get errors(): FieldErrors {
    return this.#errors;
  }
  get error(): BridgeError | null {
    return this.#error;
  }
  get exporting(): boolean {
    return this.#exporting;
  }

  /** Local form checks first; the service's own rules come back from main as field errors. */
  #localErrors(f: UsageForm): FieldErrors {
    const e: FieldErrors = {};
    if (!f.start) e.start = 'Choose a start date.';
    if (!f.end) e.end = 'Choose an end date.';
    if (f.start && f.end && f.start > f.end) e.end = 'The end date is before the start date.';
    return e;
  }

  query(): UsageQuery {
    const f = this.#form;
    const start = new Date(`${f.start}T00:00:00`);
    const endOfDay = new Date(`${f.end}T00:00:00`).getTime() + 86_400_000;
    const end = new Date(Math.min(endOfDay, Date.now()));
    return {
      start: start.toISOString(),
      end: end.toISOString(),
      granularity: f.granularity,
      ...(f.currency ? { currency: f.currency } : {}),
    };
  }

  /**
   * The currency is a setting (Settings shows it too): picked here, it is saved for both. A code the
   * service or main refuses comes back as this field's error.
   */
  async chooseCurrency(code: string): Promise<void> {
    this.set({ currency: code });
    const saved = await settings.save({ usage: { currency: code === '' ? null : code } });
    if (!saved.ok) this.#errors = { ...this.#errors, currency: Object.values(saved.errors)[0] ?? 'Not saved.' };
  }

  /** Follows the saved currency (chosen in Settings, or in another window). */
  adoptCurrency(code: string | null): void {
    if ((code ?? '') !== this.#form.currency) this.set({ currency: code ?? '' });
  }

  set(patch: Partial<UsageForm>): void {
    const currencyChanged = patch.currency !== undefined && patch.currency !== this.#form.currency;
    this.#form = { ...this.#form, ...patch };
    void this.load();
    if (currencyChanged) void this.#loadMonth();
  }

  /** The report for the form, and this month's total for the spending guard (which no form change touches). */
  refresh(): void {
    void this.load();
    void this.#loadMonth();
  }

  async load(): Promise<void> {
    const local = this.#localErrors(this.#form);
    this.#errors = local;
    // A form refused here also outdates a report still on its way: its answer must not clear the error.
    const seq = ++this.#seq;
    if (Object.keys(local).length) {
      this.#loading = false;
      return;
    }
    this.#loading = true;
    const res = await call('usage:report', this.query());
    if (seq !== this.#seq) return;
    this.#loading = false;
    if (res.ok) {
      this.#report = res.value;
      this.#error = null;
      this.#errors = {};
    } else if (res.error.code === 'VALIDATION' && res.error.fields?.length) {
      this.#errors = fieldErrors(res.error);
      this.#error = null;
    } else {
      this.#error = res.error;
    }
  }

  async #loadMonth(): Promise<void> {
    const seq = ++this.#monthSeq;
    const currency = this.#form.currency;
    const q = {
      start: new Date(`${monthStart()}T00:00:00`).toISOString(),
      end: new Date().toISOString(),
      granularity: 'DAYS' as const,
    };
    // The cap is counted in credits (what the service meters); the amount shows what it costs.
    const [credits, amount] = await Promise.all([
      call('usage:report', q),
      currency ? call('usage:report', { ...q, currency }) : Promise.resolve(null),
    ]);
    if (seq !== this.#monthSeq) return;
    if (credits.ok) this.#month = credits.value;
    this.#monthAmount = amount?.ok ? amount.value : null;
  }

  /** Asks main for the CSV and hands it to the browser as a download. */
  async exportCsv(): Promise<BridgeError | null> {
    this.#exporting = true;
    const res = await call('usage:csv', this.query());
    this.#exporting = false;
    if (!res.ok) return res.error;
    const url = URL.createObjectURL(new Blob([res.value.csv], { type: 'text/csv' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = res.value.fileName;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    return null;
  }
}

export const usage = new UsageState();
