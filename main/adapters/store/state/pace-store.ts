// The service's processing pace, remembered across runs (`pace.json` in the state folder, private
// like everything there): the last few measured paces, so the first estimate of a new run is not
// the prior's guess.
import Conf from 'conf';
import { PRIVATE_FILE_MODE } from '../private-files.js';
import { PACE_KEPT, rememberPace } from '../../../engine/estimate.js';

export class PaceStore {
  private readonly conf: Conf<{ paces: unknown }>;
  private kept: number[];

  constructor(stateDir: string) {
    this.conf = new Conf<{ paces: unknown }>({
      cwd: stateDir,
      configName: 'pace',
      projectName: 'sluice',
      configFileMode: PRIVATE_FILE_MODE,
      clearInvalidConfig: true,
    });
    const raw = this.conf.get('paces');
    // A damaged file costs only the learned pace: the prior takes over.
    this.kept = Array.isArray(raw)
      ? raw.filter((x): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0).slice(-PACE_KEPT)
      : [];
  }

  get paces(): readonly number[] {
    return this.kept;
  }

  add(pace: number): void {
    this.kept = rememberPace(this.kept, pace);
    try {
      this.conf.set('paces', this.kept);
    } catch {
      // A state folder that cannot be written (full disk) keeps the pace for this run only.
    }
  }
}
