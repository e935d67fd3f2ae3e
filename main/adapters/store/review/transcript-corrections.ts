// Where the editor's corrections are kept: `<state>/corrections/<jobId>.json`, one layer per job,
// private like everything in the state folder (private-files.ts) and replaced atomically on every
// change, so a crash leaves the previous layer or the new one, never half of one. The service's
// export stays untouched in `exports/`: the layer is applied on top of it.
import { mkdir, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { CORRECTIONS_LAYER, type CorrectionsLayer } from '../../../engine/transcript/corrections.js';
import { writeFileAtomic } from '../../results/result-writer.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files.js';

export class CorrectionsStore {
  constructor(readonly dir: string) {}

  pathOf(jobId: string): string {
    return path.join(this.dir, `${jobId}.json`);
  }

  /** The job's layer; undefined when there is none. A damaged file is set aside (`.damaged`), not lost. */
  async load(jobId: string): Promise<CorrectionsLayer | undefined> {
    const file = this.pathOf(jobId);
    const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw e;
    });
    if (text === undefined) return undefined;
    try {
      return CORRECTIONS_LAYER.parse(JSON.parse(text)) as CorrectionsLayer;
    } catch {
      await rename(file, `${file}.damaged`).catch(() => undefined);
      return undefined;
    }
  }

  async save(jobId: string, layer: CorrectionsLayer): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    await writeFileAtomic(this.pathOf(jobId), JSON.stringify(layer), {
      writer: jobId.slice(0, 8),
      mode: PRIVATE_FILE_MODE,
    });
  }
}
