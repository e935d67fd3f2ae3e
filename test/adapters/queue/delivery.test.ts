// The export is kept in the state folder before the results are written beside the source. When
// that folder cannot take it (full disk), the job has done nothing wrong: the failure goes to the
// runner as a storage failure (the queue pauses and the export runs again later), never to the job.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Delivery } from '../../../main/adapters/queue/delivery.js';
import type { JobEvent } from '../../../main/engine/job.js';
import type { ExportResult } from '../../../main/service/types.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('Delivery', () => {
  it('an export the state folder cannot keep is a storage failure, not a failed export', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sluice-delivery-'));
    const exportsDir = path.join(dir, 'exports');
    const applied: JobEvent[] = [];
    const storage: string[] = [];
    const bytes = new TextEncoder().encode('{"transcription":{"text":"hi"}}');
    const delivery = new Delivery({
      exportJson: () => Promise.resolve({ outcome: 'result', text: '', bytes, result: {} as ExportResult }),
      writeResults: () => Promise.resolve([]),
      job: () => undefined,
      apply: (_id, ev) => applied.push(ev),
      noteFailure: () => undefined,
      storageFailed: (id) => storage.push(id),
      exportsDir,
    });
    // Every write into the exports folder now fails (a file took its name).
    rmSync(exportsDir, { recursive: true });
    writeFileSync(exportsDir, '');
    delivery.exportNow('job-1', '11111111-1111-4111-8111-111111111111');
    await expect.poll(() => storage).toEqual(['job-1']);
    expect(applied).toEqual([]);
  });
});
