// The recipe's chapters and pull quotes as the review corrects them (outline-edit.ts), apart so
// the transcript types can name them without importing what builds them. Types only.

export interface OutlineChapter {
  /** `c1`, `c2`, …: stable across replays of the layer. */
  id: string;
  startMs: number;
  title: string;
}

export interface OutlineQuote {
  /** `q1`, `q2`, …: stable across replays of the layer. */
  id: string;
  startMs: number;
  endMs: number;
  text: string;
  /** The speaker id of the first word (the name is looked up when written). */
  speaker?: string;
  /**
   * The editor typed or moved this quote: its text is theirs, not read again from the words when
   * they are corrected (outline-follow.ts). Absent for a quote the recipe found.
   */
  typed?: true;
}

/** The timed outline as corrected; `notes` say what the recipe's answers left out, and a chapter a replayed edit merged away. */
export interface EditableOutline {
  chapters: readonly OutlineChapter[];
  quotes: readonly OutlineQuote[];
  notes: readonly string[];
}
