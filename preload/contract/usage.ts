// The Usage screen's query and report, and what the app says about itself.
// Part of the contract (../contract.ts re-exports every part): no imports but its siblings.
import type { Granularity, Platform } from './shared.js';

export interface UsageQuery {
  /** ISO date or date-time; default: the 1st of the current month (UTC). */
  start?: string;
  end?: string;
  granularity?: Granularity;
  /** Absent: amounts in credits. */
  currency?: string;
}

export interface UsageItemView {
  credits: string;
  startTimestamp: number;
  endTimestamp: number;
  streamsCount: number;
  operationType?: string;
  streamConfigurationTemplateId?: string;
  /** Integers written as strings (the service's shape). */
  measurements: Record<string, string>;
}

export interface UsageView {
  startTimestamp: number;
  endTimestamp: number;
  granularity: Granularity;
  currency: string | null;
  total: UsageItemView;
  byPeriod: UsageItemView[];
  /** One total per operation type over the whole period (the service's per-bucket items added up). */
  byOperation: UsageItemView[];
  /** One total per template over the whole period. */
  byTemplate: Array<UsageItemView & { templateName?: string }>;
  cap: { enabled: boolean; monthlyCreditCap: number | null; pausedByCap: boolean };
  simulated: boolean;
}

/** One file's cost, per operation: what the service counted for its stream (§7.3). */
export interface FileCostFigures {
  /** Milliseconds of audio processed. */
  audioMs: number;
  /** AI tokens read (transcript and prompts) and written (answers), and the service's total. */
  tokensIn: number;
  tokensOut: number;
  tokens: number;
  /** Decimal string in `currency`, or credits when it is null. */
  amount: string;
  /** False while a processor is still counting (its latest partial record is shown). */
  final: boolean;
}

export interface FileCostLineView extends FileCostFigures {
  operationType: string;
  /** A processor of this operation stopped on an error; what it used until then is counted. */
  errorOccurred: boolean;
}

export interface FileCostView {
  streamId: string;
  /** null: credits. */
  currency: string | null;
  lines: FileCostLineView[];
  total: FileCostFigures;
  /** The currency chosen in Settings, when the service does not price in it (the amounts are credits). */
  currencyRefused?: string;
  simulated: boolean;
}

export interface AppInfo {
  version: string;
  platform: Platform;
  simulated: boolean;
  connection: string;
  os: string;
  startAtLoginSupported: boolean;
  /**
   * The settings file did not parse at start and was set aside: what happened, naming the file and
   * where it was kept. Sluice runs on the default settings.
   */
  settingsSetAside?: string;
}

/** The currencies the service prices usage in: its own answers, asked at most once a day. */
export interface PricedCurrenciesView {
  /** Upper-case ISO 4217 codes, sorted; credits are always there besides. */
  codes: string[];
  /** When the service was asked (epoch ms). */
  checkedAt: number;
}
