// The result formats, once: every fact of a format that more than one place needs is a column of
// its row, and every list of formats in main, the contract and the renderer is read from here.
// A new format is one row here, one writer (main/engine/captions/, editors/ or recipes/, keyed by
// the id: the renderer maps are typed exhaustive over these ids) and its README line.
// test/architecture/format-table.test.ts fails when a list of format ids is written by hand elsewhere.

export type FormatGroup = 'captions' | 'documents' | 'editor' | 'recipe';

const GROUP_TITLES: ReadonlyArray<readonly [FormatGroup, string]> = [
  ['captions', 'Captions'],
  ['documents', 'Transcript documents'],
  ['editor', 'For the editing timeline'],
  ['recipe', 'Chapters and show notes (recipes)'],
];

interface FormatRow {
  readonly id: string;
  /** As people see it, in Settings and History. */
  readonly label: string;
  readonly group: FormatGroup;
  /** The file name's ending after `{name}.`: the id, except where two formats share a type. */
  readonly extension: string;
  /** Made from the transcript's words alone: media with no speech gets none. */
  readonly needsWords: boolean;
  /** Written once more per further caption layout (`{name}.vertical.srt`). */
  readonly layouts: boolean;
  /** On the editor's timeline: anchored at the media's own timecode, at its frame rate. */
  readonly timecoded: boolean;
  /** Names the media (links its path, or titles it by its file name): written again when it moves. */
  readonly namesMedia: boolean;
  /** Made from a recipe's chapters answer: nothing to write without one. */
  readonly needsChapters: boolean;
  /** Ticked in the default settings. */
  readonly byDefault: boolean;
}

const DEFAULTS = {
  needsWords: false,
  layouts: false,
  timecoded: false,
  namesMedia: false,
  needsChapters: false,
  byDefault: false,
} as const;
type RowInput = Partial<FormatRow> & Pick<FormatRow, 'id' | 'label' | 'group'>;
type Filled<R extends RowInput> = Omit<typeof DEFAULTS, keyof R> & {
  extension: R extends { extension: string } ? R['extension'] : R['id'];
} & R;
/** A row: the columns it does not give are false, and its extension is its id. */
const row = <const R extends RowInput>(r: R): Filled<R> => ({ ...DEFAULTS, extension: r.id, ...r }) as Filled<R>;

const caption = { needsWords: true } as const;
const timeline = { group: 'editor', needsWords: true, timecoded: true, namesMedia: true } as const;

/** In the order every list shows them. */
export const FORMATS = [
  row({ id: 'json', label: 'JSON (full result)', group: 'documents', byDefault: true }),
  row({ id: 'srt', label: 'SRT captions', group: 'captions', ...caption, layouts: true, byDefault: true }),
  row({ id: 'vtt', label: 'WebVTT captions', group: 'captions', ...caption, layouts: true, byDefault: true }),
  row({ id: 'txt', label: 'Plain text', group: 'documents', ...caption, byDefault: true }),
  row({ id: 'csv', label: 'CSV', group: 'documents', ...caption }),
  row({ id: 'md', label: 'Markdown', group: 'documents', namesMedia: true }),
  row({ id: 'docx', label: 'Word document', group: 'documents', ...caption, namesMedia: true }),
  row({ id: 'fcpxml', label: 'Final Cut Pro (FCPXML)', ...timeline }),
  row({ id: 'itt', label: 'iTT captions (Final Cut Pro)', ...timeline }),
  row({ id: 'ttml', label: 'TTML captions (IMSC 1.1)', ...timeline }),
  row({ id: 'edl', label: 'Resolve markers (EDL)', ...timeline }),
  // `.premiere.xml` opens as XML, `.avid.txt` as text.
  row({ id: 'premiere', label: 'Premiere Pro markers (XML)', ...timeline, extension: 'premiere.xml' }),
  row({ id: 'avid', label: 'Avid SubCap captions', ...timeline, extension: 'avid.txt' }),
  row({
    id: 'chapters',
    label: 'Chapters (Podcasting 2.0 JSON)',
    group: 'recipe',
    extension: 'chapters.json',
    needsChapters: true,
  }),
  row({ id: 'youtube', label: 'YouTube chapters', group: 'recipe', extension: 'youtube.txt', needsChapters: true }),
  row({ id: 'shownotes', label: 'Show notes', group: 'recipe', extension: 'shownotes.md', namesMedia: true }),
  row({ id: 'ffmetadata', label: 'Chapters for ffmpeg', group: 'recipe', needsChapters: true }),
] as const satisfies readonly FormatRow[];

type Row = (typeof FORMATS)[number];
export type ResultFormat = Row['id'];
export type EditorFormat = Extract<Row, { group: 'editor' }>['id'];
export type RecipeFormat = Extract<Row, { group: 'recipe' }>['id'];
export type WordFormat = Extract<Row, { needsWords: true }>['id'];

type Ids<T extends readonly Row[]> = { readonly [K in keyof T]: T[K]['id'] };
const idsOf = <T extends readonly Row[]>(rows: T): Ids<T> => rows.map((r) => r.id) as unknown as Ids<T>;

/** Every id, in order (a non-empty tuple, as a schema's enum takes it). */
export const RESULT_FORMATS = idsOf(FORMATS);

const where = <K extends keyof FormatRow, V extends FormatRow[K]>(key: K, value: V) =>
  FORMATS.filter((f): f is Extract<Row, Record<K, V>> => f[key] === value).map(
    (f) => f.id as Extract<Row, Record<K, V>>['id'],
  );

export const EDITOR_FORMATS: readonly EditorFormat[] = where('group', 'editor');
export const RECIPE_FORMATS: readonly RecipeFormat[] = where('group', 'recipe');
export const WORD_FORMATS: readonly WordFormat[] = where('needsWords', true);
export const TIMECODED_FORMATS: readonly ResultFormat[] = where('timecoded', true);
export const LAYOUT_FORMATS: readonly ResultFormat[] = where('layouts', true);
export const MEDIA_NAMING_FORMATS: readonly ResultFormat[] = where('namesMedia', true);
export const CHAPTER_FORMATS: readonly RecipeFormat[] = where('needsChapters', true) as RecipeFormat[];
export const DEFAULT_FORMATS: readonly ResultFormat[] = where('byDefault', true);

const BY_ID = new Map<string, Row>(FORMATS.map((f) => [f.id, f]));

export const isResultFormat = (s: string): s is ResultFormat => BY_ID.has(s);
/** `{name}.{extension}`: `srt`, `chapters.json`, `premiere.xml`. */
export const formatExtension = (id: ResultFormat): string => (BY_ID.get(id) as Row).extension;

/** The groups a long list of formats is shown in (History's re-export), each format in one, in order. */
export const FORMAT_GROUPS: ReadonlyArray<{ id: FormatGroup; title: string; formats: readonly ResultFormat[] }> =
  GROUP_TITLES.map(([id, title]) => ({ id, title, formats: where('group', id) }));
