// The usage an embedded sandbox reports, kept across restarts (walkthrough S3-12): streams live in
// memory only, so what they consumed is written to a file in the state folder whenever a usage
// record changes, and the records of streams a previous run held are added to every report. The
// file is replaced whole (temporary file, then rename), so a crash leaves the old or the new one.
// Amounts are the sandbox's simulated ones, as before; only their memory changed.
import { open, readFile, rename, rm } from 'node:fs/promises';
import type { UsageRecordDto } from '../service/types.js';

interface LedgerFile {
  version: 1;
  records: UsageRecordDto[];
}

const isRecord = (r: unknown): r is UsageRecordDto =>
  typeof r === 'object' &&
  r !== null &&
  typeof (r as UsageRecordDto).streamId === 'string' &&
  typeof (r as UsageRecordDto).credits === 'string' &&
  typeof (r as UsageRecordDto).timestamp === 'number';

export class UsageLedger {
  /** Every stream's records as last written, by stream id (past runs' and this run's). */
  private readonly byStream = new Map<string, UsageRecordDto[]>();
  /** What the file holds: a sandbox that has used nothing writes no file at all. */
  private written = JSON.stringify({ version: 1, records: [] } satisfies LedgerFile);
  private writing: Promise<void> = Promise.resolve();
  private pending = false;

  private constructor(readonly file: string) {}

  /**
   * Reads the file (absent: nothing used yet). A file that cannot be read as a ledger is moved
   * aside as `<file>.unreadable` rather than written over, and the sandbox starts from zero.
   */
  static async open(file: string): Promise<UsageLedger> {
    const ledger = new UsageLedger(file);
    const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return null;
      throw e;
    });
    if (text === null) return ledger;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    const records = (parsed as LedgerFile | null)?.records;
    if (!Array.isArray(records) || !records.every(isRecord)) {
      await rename(file, `${file}.unreadable`).catch(() => undefined);
      return ledger;
    }
    for (const r of records) ledger.byStream.set(r.streamId, [...(ledger.byStream.get(r.streamId) ?? []), r]);
    ledger.written = text;
    return ledger;
  }

  /**
   * Every record to report: this run's streams as they are now, and the last known records of
   * streams only an earlier run held. This run's are remembered and written if they changed.
   */
  records(current: ReadonlyMap<string, UsageRecordDto[]>): UsageRecordDto[] {
    for (const [id, list] of current) if (list.length > 0) this.byStream.set(id, list);
    this.save();
    return [...this.byStream.values()].flat();
  }

  /** Resolves once what was asked to be written is on disk (close, tests). */
  async flushed(): Promise<void> {
    while (this.pending) await this.writing;
    await this.writing;
  }

  private save(): void {
    if (this.pending) return;
    this.pending = true;
    this.writing = this.writing.then(async () => {
      this.pending = false;
      const body: LedgerFile = { version: 1, records: [...this.byStream.values()].flat() };
      const text = JSON.stringify(body);
      if (text === this.written) return;
      // A failed write (full disk) leaves the previous file; the next change tries again.
      await replaceWhole(this.file, text).then(
        () => void (this.written = text),
        () => undefined,
      );
    });
  }
}

/**
 * Writes `text` to a temporary file beside `file`, flushed, then renamed over it: the sandbox
 * stands for the service and keeps its own files (it imports nothing of the product's adapters).
 */
async function replaceWhole(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const fh = await open(tmp, 'w', 0o600);
    try {
      await fh.writeFile(text);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}
