// How long what an editor types may be, and how many of a thing one transcript or list holds: a
// marker's name and note, a chapter's title and a quote, a select's list name, label and note.
// Main refuses more (the edits' schemas and checks); the renderer's fields stop there as typed.

export const MARKER_LIMITS = { name: 100, note: 1000, markers: 999, id: 20 } as const;

/** The chapter recipe's outline as the editor changes it: chapter titles and quotes. */
export const OUTLINE_LIMITS = { title: 200, quote: 1000, items: 500, id: 20, quoteWords: 12 } as const;

export const SELECT_LIMITS = { name: 100, label: 100, note: 1000, selects: 999 } as const;
