// What an add is asked with and what it answers: the intake's vocabulary, shared by its callers
// (the runtime's queue commands, the IPC handlers, the CLI) without the intake itself.
import type { FileIdentity } from '../../engine/file-identity.js';
import type { ResultPlace } from '../../engine/job.js';
import type { TrackChoice } from '../../engine/card-rules.js';
import type { OutputSettings, Params, WatchFolder } from '../../engine/settings.js';
import type { RecipeRef } from '../../engine/recipes/recipes.js';

export interface AddOptions {
  templateId?: string;
  params?: Params;
  /** Undefined: the default recipe from Settings; null: none. */
  recipe?: RecipeRef | null;
  /** Undefined: the default glossary from Settings. */
  glossary?: string[];
  output?: OutputSettings;
  /** Process again even when the same content was already processed. */
  force?: boolean;
  /** A re-run of this job: its results are replaced by the new run's (see JobRecord.replaces). */
  replaces?: string;
  /** Where the results go when not beside the file: a re-run's, where its earlier run wrote them. */
  place?: ResultPlace;
}

export type AddOutcome =
  | { path: string; outcome: 'added'; jobId: string }
  | {
      path: string;
      outcome: 'already-queued' | 'already-done' | 'retried';
      jobId: string;
      /** The same clip taken from another place that is still there: this file is its second copy. */
      copyOf?: string;
    }
  | {
      path: string;
      outcome: 'rejected';
      message: string;
      /** Skipped by a card rule (rule id, and the file processed instead, relative to the folder). */
      card?: { rule: string; winner: string | null };
      /** Not recorded because the state folder refused the write: worth offering again once it takes writes. */
      unrecorded?: true;
    };

export interface ConsiderOptions {
  templateId: string;
  params: Params;
  output: OutputSettings;
  force: boolean;
  retryFailed: boolean;
  identity?: FileIdentity;
  /** A media link rather than a file: never stat'ed nor hashed. */
  link?: { resultsDir: string };
  /** Card rules apply (a watch folder's files): paths relative to this folder. */
  cards?: { root: string; tracks: TrackChoice };
  /** Where the results go when not beside the file (a watch folder's output folder). */
  place?: ResultPlace;
  replaces?: string;
  /** A watch folder shared with other computers: a claim on the share comes before the job. */
  shared?: WatchFolder;
}

export interface LinkOptions extends AddOptions {
  /** The folder the links' results go to (resolved by the caller: Settings, else Downloads). */
  resultsDir: string;
}

/** The jobs an add produced or found (everything but rejections). */
export function jobIds(outcomes: readonly AddOutcome[]): string[] {
  return outcomes.flatMap((o) => ('jobId' in o ? [o.jobId] : []));
}
