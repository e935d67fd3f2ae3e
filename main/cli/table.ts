// Tables of the command line (`process`, `history`, `status`, `usage`, `templates`).
//
// Note: on a terminal a table fits its width: the columns shrink to share it, a cell too long is
// cut in the middle (`…`), a stream id shows its first 8 characters; `--wide` (or `--json`) shows
// everything. Piped or redirected, a table is plain lines: a header, then one line per row, cells
// separated by tabs, never cut. Widths are display cells (CJK and most emoji take 2), measured as
// cli-table3 measures them when it pads, so borders line up.
import Table from 'cli-table3';
import stringWidth from 'string-width';
import { printable } from './printable.js';

export interface Column {
  header: string;
  /**
   * How a cell gives up width: `middle` cuts it in the middle (default), `id` keeps the first 8
   * characters of an id first, `none` never shrinks (short fixed values: states, dates).
   */
  shrink?: 'middle' | 'id' | 'none';
}

export interface TableTarget {
  isTTY: boolean;
  /** The terminal's width in cells (undefined: unknown). */
  columns: number | undefined;
}

export interface TableOptions {
  /** Show every cell whole, however wide the table gets. */
  wide?: boolean;
  target?: TableTarget;
}

/** The `--wide` option of every command that prints a table. */
export const WIDE_OPTION = ['--wide', 'show every table cell whole, even wider than the terminal'] as const;

const ID_CELLS = 8;
/** Narrowest a shrinking column gets (ids: their first characters), unless even that does not fit. */
const MIN_CELLS = 3;
const FALLBACK_COLUMNS = 80;

export const displayWidth = (s: string): number => stringWidth(s);

/** Where tables go: standard output, as wide as the terminal (COLUMNS wins when it is set). */
export function stdoutTarget(env: NodeJS.ProcessEnv = process.env): TableTarget {
  const fromEnv = Number(env.COLUMNS);
  const columns = Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : process.stdout.columns;
  return { isTTY: process.stdout.isTTY === true, columns: columns || undefined };
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const graphemes = (s: string): string[] => Array.from(segmenter.segment(s), (g) => g.segment);

/** Cuts `s` to at most `cells` display cells, keeping its start and its end around `…`. */
export function truncateMiddle(s: string, cells: number): string {
  if (displayWidth(s) <= cells) return s;
  if (cells <= 0) return '';
  if (cells === 1) return '…';
  const parts = graphemes(s);
  const room = cells - 1;
  const take = (list: string[], budget: number): string[] => {
    const out: string[] = [];
    let used = 0;
    for (const g of list) {
      const w = displayWidth(g);
      if (used + w > budget) break;
      out.push(g);
      used += w;
    }
    return out;
  };
  const head = take(parts, Math.ceil(room / 2));
  const headCells = displayWidth(head.join(''));
  const tail = take([...parts].reverse(), room - headCells).reverse();
  return `${head.join('')}…${tail.join('')}`;
}

/** Exactly `cells` display cells: cut in the middle, or padded with spaces (bar labels). */
export function fitCells(s: string, cells: number): string {
  const cut = truncateMiddle(printable(s), cells);
  return cut + ' '.repeat(Math.max(0, cells - displayWidth(cut)));
}

/** Width of each column so the table, borders included, fits `total` cells where it can. */
export function fitWidths(columns: readonly Column[], rows: readonly string[][], total: number): number[] {
  const content = columns.map((_, i) => Math.max(0, ...rows.map((r) => displayWidth(r[i] ?? ''))));
  const natural = columns.map((c, i) => Math.max(displayWidth(c.header), content[i] ?? 0));
  // cli-table3 draws `│ cell │ cell │`: one border per column plus one, and a space each side.
  const room = total - (3 * columns.length + 1);
  const sum = (ws: readonly number[]): number => ws.reduce((a, b) => a + b, 0);
  if (sum(natural) <= room) return natural;

  // Headers give way first (the values are what the table is for), then ids keep only their
  // first characters: they stay recognisable.
  const wants = natural.map((w, i) => {
    const values = Math.min(w, Math.max(content[i] ?? 0, MIN_CELLS + 1));
    return columns[i]?.shrink === 'id' ? Math.min(values, Math.max(ID_CELLS, MIN_CELLS + 1)) : values;
  });
  if (sum(wants) <= room) {
    // The room left goes back to the headers that were cut, in column order; an id gets it only
    // when it then fits whole (a longer prefix helps no one).
    let spare = room - sum(wants);
    return wants.map((w, i) => {
      const missing = (natural[i] ?? w) - w;
      const give = columns[i]?.shrink === 'id' ? (missing <= spare ? missing : 0) : Math.min(spare, missing);
      spare -= give;
      return w + give;
    });
  }

  // Then the shrinking columns share what the fixed ones leave, the narrowest served first.
  const fixed = columns.map((c) => c.shrink === 'none');
  const widths = wants.slice();
  let left = room - sum(wants.filter((_, i) => fixed[i]));
  const order = wants
    .map((w, i) => ({ w, i }))
    .filter(({ i }) => !fixed[i])
    .sort((a, b) => a.w - b.w);
  order.forEach(({ w, i }, k) => {
    const share = Math.floor(left / (order.length - k));
    const floor = columns[i]?.shrink === 'id' ? ID_CELLS : MIN_CELLS;
    widths[i] = Math.min(w, Math.max(floor, share));
    left -= widths[i];
  });
  return widths;
}

/** Renders a table for `target`: boxed and fitted on a terminal, tab-separated lines otherwise. */
export function renderTable(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
  opts: TableOptions = {},
): string {
  const target = opts.target ?? stdoutTarget();
  const cells = rows.map((r) => columns.map((_, i) => printable(r[i] ?? '')));
  if (!target.isTTY) {
    return [columns.map((c) => printable(c.header)), ...cells].map((r) => r.join('\t')).join('\n');
  }
  const headers = columns.map((c) => printable(c.header));
  const widths = opts.wide ? undefined : fitWidths(columns, cells, target.columns ?? FALLBACK_COLUMNS);
  const cut = (s: string, i: number): string => {
    const w = widths?.[i];
    if (w === undefined) return s;
    if (columns[i]?.shrink === 'id' && displayWidth(s) > w) s = s.slice(0, ID_CELLS);
    return truncateMiddle(s, w);
  };
  const table = new Table({
    head: headers.map(cut),
    wordWrap: false,
    // One line per row: no rule between rows.
    style: { compact: true },
    ...(widths ? { colWidths: widths.map((w) => w + 2) } : {}),
  });
  for (const r of cells) table.push(r.map(cut));
  return table.toString();
}
