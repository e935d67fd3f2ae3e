// Commands that only talk to the service: `usage` and `cancel`. They need no engine, so they work
// while `sluice watch` or the app holds the state folder.
import type { Command } from 'commander';
import path from 'node:path';
import { createClient, type SluiceClient } from '../../api/client.js';
import { isServiceError } from '../../service/errors.js';
import { GRANULARITIES, type Granularity, type UsageReportDto } from '../../service/types.js';
import { resolveConnection } from '../../runtime/connection.js';
import { keytarStore } from '../../adapters/store/secrets/keychain.js';
import { SettingsStore } from '../../adapters/store/state/settings-store.js';
import { addCommonOptions, defaultStateDir, serviceUrlFlags, stateDirOf, type CommonFlags } from '../context.js';
import { renderTable, WIDE_OPTION, type TableOptions } from '../table.js';
import { printStreamCost, streamOfFile } from './stream-usage.js';

export async function withClient<T>(
  flags: CommonFlags,
  f: (c: SluiceClient, simulated: boolean) => Promise<T>,
): Promise<T> {
  const stateDir = path.resolve(flags.stateDir ?? defaultStateDir());
  const settings = new SettingsStore(stateDir, { damaged: 'ignore' });
  const urls = serviceUrlFlags(flags);
  const conn = await resolveConnection({
    settings: settings.get().connection,
    stateDir,
    overrides: {
      ...(flags.sandbox ? { sandbox: true } : {}),
      ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
      urls,
    },
    secrets: keytarStore(),
  });
  const client = createClient(conn.client);
  try {
    return await f(client, conn.simulated);
  } finally {
    await client.close();
    await conn.sandbox?.close();
  }
}

export function fail(e: unknown): number {
  const where = isServiceError(e) && e.internalErrorName ? ` [${e.internalErrorName}]` : '';
  console.error(`sluice: ${e instanceof Error ? e.message : String(e)}${where}`);
  return 1;
}

// Units go in the headers, so narrow terminals cut headers rather than numbers.
const minutes = (ms: string): string => (Number(ms) / 60_000).toFixed(1);
const megabytes = (b: string): string => (Number(b) / 1e6).toFixed(1);

export function usageTable(r: UsageReportDto, opts: TableOptions = {}): string {
  const unit = r.currency ?? 'credits';
  const headers = [
    'Period (UTC)',
    `Amount (${unit})`,
    'Streams',
    'Audio (min)',
    'Tokens',
    'Ingress (MB)',
    'Egress (MB)',
    'Storage (MB)',
  ];
  const row = (label: string, i: UsageReportDto['totalMeasurements']): string[] => {
    const m = i.measurements;
    return [
      label,
      i.credits,
      String(i.streamsCount),
      minutes(m.processedAudioLength),
      m.processedTokens,
      megabytes(m.ingressSize),
      megabytes(m.egressSize),
      megabytes(m.storageSize),
    ];
  };
  const fmt = (t: number): string => new Date(t).toISOString().replace('T', ' ').slice(0, 16);
  const rows = [
    ...r.aggregatedMeasurements.map((i) => row(fmt(i.startTimestamp), i)),
    row('Total', r.totalMeasurements),
  ];
  return renderTable(
    headers.map((header) => ({ header })),
    rows,
    opts,
  );
}

/** `usage --stream` / `--file`: one file's cost instead of the period's. */
async function oneFile(
  flags: CommonFlags & { start?: string; end?: string; stream?: string; file?: string; wide?: boolean },
  currency: string | undefined,
): Promise<number> {
  if (
    flags.start !== undefined ||
    flags.end !== undefined ||
    (flags.stream !== undefined && flags.file !== undefined)
  ) {
    console.error(
      'sluice usage: --stream and --file show one file’s cost: give one of them, without --start or --end.',
    );
    return 2;
  }
  const streamId = flags.stream?.trim() || (flags.file ? streamOfFile(stateDirOf(flags), flags.file) : undefined);
  if (!streamId) {
    console.error(
      flags.file
        ? `sluice usage: History has no stream for ${flags.file}. Give its stream id with --stream (see \`sluice history\`).`
        : 'sluice usage: --stream needs a stream id (see `sluice history`).',
    );
    return flags.file ? 1 : 2;
  }
  return withClient(flags, (client, simulated) =>
    printStreamCost(client, simulated, streamId, {
      ...(currency ? { currency } : {}),
      ...(flags.json ? { json: true } : {}),
      ...(flags.wide ? { wide: true } : {}),
      ...(flags.file ? { file: flags.file } : {}),
    }),
  ).catch(fail);
}

export function registerService(program: Command): void {
  addCommonOptions(
    program
      .command('usage')
      .description('Usage and spending for a period (default: this month so far).')
      .option('--start <date-time>', 'ISO date-time, e.g. 2026-11-01T00:00:00Z (default: 1st of this month)')
      .option('--end <date-time>', 'ISO date-time (default: now)')
      .option('--granularity <g>', `bucket size: ${GRANULARITIES.join(', ')}`, 'DAYS')
      .option(
        '--currency <code>',
        'an ISO 4217 code such as USD, EUR, GBP or RON; the service says which it supports (default: the one in Settings, else credits)',
      )
      .option('--stream <stream-id>', "what one file cost: its stream's usage per operation (AI prompts included)")
      .option('--file <path>', 'as --stream, for the latest stream of this file in History')
      .option(...WIDE_OPTION),
  ).action(
    async (
      flags: CommonFlags & {
        start?: string;
        end?: string;
        granularity: string;
        currency?: string;
        wide?: boolean;
        stream?: string;
        file?: string;
      },
    ) => {
      const g = flags.granularity.toUpperCase();
      // ISO 4217 codes are upper case, the form the service takes (§7.1: `USD`). Without the flag,
      // the currency chosen in Settings (the one the Usage screen shows).
      const saved = () =>
        new SettingsStore(path.resolve(flags.stateDir ?? defaultStateDir()), { damaged: 'ignore' }).get().usage
          .currency;
      const currency = flags.currency?.trim().toUpperCase() ?? saved() ?? undefined;
      if (currency !== undefined && !/^[A-Z]{3}$/.test(currency)) {
        console.error('sluice usage: --currency must be a three-letter ISO 4217 code such as USD, EUR or GBP.');
        process.exitCode = 2;
        return;
      }
      if (flags.stream !== undefined || flags.file !== undefined) {
        process.exitCode = await oneFile(flags, currency);
        return;
      }
      if (!GRANULARITIES.includes(g as Granularity)) {
        console.error(`sluice usage: --granularity must be one of ${GRANULARITIES.join(', ')}.`);
        process.exitCode = 2;
        return;
      }
      for (const [name, v] of [
        ['--start', flags.start],
        ['--end', flags.end],
      ] as const) {
        if (v !== undefined && Number.isNaN(Date.parse(v))) {
          console.error(`sluice usage: ${name} must be an ISO date-time such as 2026-11-01T00:00:00Z.`);
          process.exitCode = 2;
          return;
        }
      }
      process.exitCode = await withClient(flags, async (client, simulated) => {
        const report = await client.usageReport({
          granularity: g as Granularity,
          ...(flags.start ? { start: flags.start } : {}),
          ...(flags.end ? { end: flags.end } : {}),
          ...(currency ? { currency } : {}),
        });
        if (flags.json) console.log(JSON.stringify(report, null, 2));
        else {
          if (simulated) console.error('Sandbox usage (simulated).');
          console.log(usageTable(report, { wide: flags.wide === true }));
        }
        return 0;
      }).catch(fail);
    },
  );

  addCommonOptions(
    program
      .command('cancel')
      .description('Cancel a stream on the service by its id.')
      .argument('<stream-id>', 'the stream id (a UUID)'),
  ).action(async (streamId: string, flags: CommonFlags) => {
    process.exitCode = await withClient(flags, async (client) => {
      const r = await client.cancelStream(streamId);
      console.log(
        r.alreadyFinished
          ? `Stream ${streamId} had already finished (${r.stream.state}).`
          : `Stream ${streamId} canceled (${r.stream.state}).`,
      );
      return 0;
    }).catch((e: unknown) => {
      if (isServiceError(e) && e.errorClass === 'state') {
        console.error(`sluice cancel: stream ${streamId} has already finished; nothing to cancel.`);
        return 1;
      }
      if (isServiceError(e) && e.kind === 'input') {
        console.error(`sluice cancel: ${e.message}`);
        return 2;
      }
      return fail(e);
    });
  });
}
