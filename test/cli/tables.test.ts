// Tables fit the terminal: at 60, 80 and 200 columns every line of `process`, `history`,
// `status`, `usage` and `templates` is at most that wide (in display cells: CJK and emoji take 2),
// one line per row; `--wide` shows whole cells; piped output is plain tab-separated lines.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth, fitCells, fitWidths, renderTable, truncateMiddle, type Column } from '../../main/cli/table.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { buildCli, runCli, SLUICE } from './run-cli.js';

const WIDTHS = [60, 80, 200] as const;
const UUID = '3f2c9a1e-7b4d-4c8a-9e21-5d6f7a8b9c0d';
const ESC = String.fromCharCode(27);
const ANSI = new RegExp(`${ESC}\\[[0-9;?]*[A-Za-z]`, 'g');
const plain = (s: string): string => s.replace(ANSI, '');
const BOX = /[┌┐└┘├┤┬┴┼│─]/;

const COLUMNS: Column[] = [
  { header: 'File' },
  { header: 'State', shrink: 'none' },
  { header: 'Stream', shrink: 'id' },
  { header: 'Result / reason' },
];
const ROWS = [
  [
    '長い名前のインタビュー録音ファイル_最終版.mp4',
    'completed',
    UUID,
    '長い名前のインタビュー録音ファイル_最終版.json, .srt, .vtt',
  ],
  [
    '🎬 family 👨‍👩‍👧 holiday footage from the summer of 2026.mov',
    'failed',
    UUID,
    'transcription: The processor could not decode the audio track of this media file [PROCESSOR_TRANSCRIPTION_ERROR]',
  ],
  ['a.wav', 'canceled', '', ''],
];

describe('renderTable on a terminal', () => {
  it.each(WIDTHS)('fits %i columns, one line per row', (columns) => {
    const out = plain(renderTable(COLUMNS, ROWS, { target: { isTTY: true, columns } })).split('\n');
    for (const line of out) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
    // Top border, header, rule, the rows, bottom border.
    expect(out).toHaveLength(ROWS.length + 4);
    // Every row's right border lines up with the header's.
    const right = new Set(out.map((l) => displayWidth(l)));
    expect(right.size).toBe(1);
  });

  it('keeps a stream id whole when there is room, its first 8 characters when there is not', () => {
    const fitting = [ROWS[0]!, ROWS[2]!];
    expect(renderTable(COLUMNS, fitting, { target: { isTTY: true, columns: 200 } })).toContain(UUID);
    const narrow = renderTable(COLUMNS, ROWS, { target: { isTTY: true, columns: 80 } });
    expect(narrow).not.toContain(UUID);
    expect(narrow).toContain(` ${UUID.slice(0, 8)} `);
  });

  it('with --wide shows every cell whole', () => {
    const out = renderTable(COLUMNS, ROWS, { wide: true, target: { isTTY: true, columns: 60 } });
    for (const row of ROWS) for (const cell of row) expect(out).toContain(cell);
  });
});

describe('renderTable piped', () => {
  it('prints a header and one tab-separated line per row, nothing cut, no borders', () => {
    const out = renderTable(COLUMNS, [...ROWS, ['tab\there', 'queued', '', 'line\nbreak']], {
      target: { isTTY: false, columns: 60 },
    });
    const lines = out.split('\n');
    expect(lines).toHaveLength(ROWS.length + 2);
    expect(lines[0]).toBe('File\tState\tStream\tResult / reason');
    expect(lines.slice(1, 4)).toEqual(ROWS.map((r) => r.join('\t')));
    // A tab or line break inside a cell cannot split its row: it shows as an escape, as in progress lines.
    expect(lines[4]).toBe('tab\\there\tqueued\t\tline\\nbreak');
    expect(out).not.toMatch(BOX);
  });
});

describe('truncateMiddle and fitWidths', () => {
  it.each([
    ['interview-final.mp4', 9, 'inte….mp4'],
    ['長い名前のファイル.mp4', 9, '長い….mp4'],
    ['長い名前のファイル', 8, '長い…ル'],
    ['👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧', 5, '👨‍👩‍👧…👨‍👩‍👧'],
    ['short', 9, 'short'],
    ['abc', 1, '…'],
  ])('%s in %i cells is %s', (text, cells, expected) => {
    expect(truncateMiddle(text, cells)).toBe(expected);
    expect(displayWidth(truncateMiddle(text, cells))).toBeLessThanOrEqual(cells);
  });

  it.each(['長い名前のインタビュー録音ファイル_最終版.wav', '🎬 family 👨‍👩‍👧.wav', 'a.wav', '長い名前'])(
    'a progress bar label for %s takes exactly 24 cells',
    (name) => {
      expect(displayWidth(fitCells(name, 24))).toBe(24);
    },
  );

  it('gives columns their natural width when they fit, and never more than the room', () => {
    expect(fitWidths(COLUMNS, [['a.wav', 'completed', UUID, 'a.json']], 200)).toEqual([5, 9, 36, 15]);
    const widths = fitWidths(COLUMNS, ROWS, 80);
    expect(widths.reduce((a, b) => a + b, 0) + 3 * COLUMNS.length + 1).toBeLessThanOrEqual(80);
    expect(widths[1]).toBe('completed'.length);
    expect(widths[2]).toBe(8);
    // Room for more than 8 characters of an id but not all of it: the column stays at 8.
    expect(fitWidths(COLUMNS, [['a.wav', 'completed', UUID, 'a.json']], 60)).toEqual([5, 9, 8, 15]);
  });
});

// The commands themselves, in a pseudo-terminal of each width (util-linux `script`).
const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Runs `sluice args` on a terminal `columns` wide; its output without colours and cursor codes. */
function onTerminal(columns: number, args: string[], env: Record<string, string> = {}): string {
  const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = `stty cols ${columns} rows 200; ${[process.execPath, SLUICE, ...args].map(quote).join(' ')}`;
  const clean: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SLUICE_') && k !== 'COLUMNS') clean[k] = v;
  // Exit codes are not the point here (a failed file makes `process` exit 1).
  const r = spawnSync('script', ['-qec', command, '/dev/null'], {
    env: { ...clean, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.error) throw r.error;
  return plain(r.stdout).replace(/\r/g, '');
}

/** The lines of the boxed table in a command's terminal output. */
const tableLines = (out: string): string[] => out.split('\n').filter((l) => /^[┌│├└]/.test(l));

describe.skipIf(!hasScript)('sluice on a terminal', () => {
  let dir: string;
  let state: string;
  let media: string[];

  beforeAll(async () => {
    buildCli();
    dir = await makeMediaDir('sluice-tables-');
    state = path.join(dir, 'state');
    const tone = await makeToneWav(dir, 'tone.wav', 1);
    media = [];
    for (const name of [
      '長い名前のインタビュー録音ファイル_最終版.wav',
      '🎬 family 👨‍👩‍👧 holiday footage from 2026.wav',
      'a.wav',
    ]) {
      await copyFile(tone, path.join(dir, name));
      media.push(path.join(dir, name));
    }
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const fits = (out: string, columns: number, rows: number): void => {
    for (const line of out.split('\n')) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
    expect(tableLines(out)).toHaveLength(rows + 4);
  };

  it.each(WIDTHS)(
    'process, history, usage, templates and status fit %i columns',
    (columns) => {
      // The first run processes (one file fails with the processor's reason); later ones find them done.
      const faults = JSON.stringify({
        processingFailure: { next: 1, internalErrorName: 'PROCESSOR_TRANSCRIPTION_ERROR' },
      });
      const processed = onTerminal(columns, ['process', ...media, '--sandbox', '--state-dir', state], {
        SLUICE_SANDBOX_FAULTS: faults,
      });
      fits(processed.slice(processed.lastIndexOf('┌')), columns, media.length);
      fits(onTerminal(columns, ['history', '--state-dir', state]), columns, media.length);
      fits(onTerminal(columns, ['templates']), columns, 7);
      const usage = onTerminal(columns, ['usage', '--sandbox', '--granularity', 'MONTHS', '--state-dir', state]);
      // The embedded sandbox keeps its usage in the state folder: the month the process run used,
      // then the Total, eight columns wide.
      fits(usage, columns, 2);
      expect(usage).toMatch(/Total/);
      const status = onTerminal(columns, ['status', '--state-dir', state]);
      for (const line of status.split('\n')) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
      expect(status).toMatch(/completed/);
      // Five commands, each a Node start-up and the first processes three files: past 30 s under load.
    },
    120_000,
  );

  it('--wide shows whole stream ids however narrow the terminal', async () => {
    const json = await runCli(['history', '--json', '--state-dir', state]);
    const ids = (JSON.parse(json.stdout) as Array<{ streamId: string | null }>).map((j) => j.streamId);
    const narrow = onTerminal(60, ['history', '--state-dir', state]);
    const wide = onTerminal(60, ['history', '--wide', '--state-dir', state]);
    for (const id of ids) {
      expect(id).toBeTruthy();
      expect(narrow).not.toContain(id);
      expect(wide).toContain(id);
    }
  }, 60_000);

  it('piped, history is a header and one tab-separated line per job, nothing cut', async () => {
    const r = await runCli(['history', '--state-dir', state]);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(media.length + 1);
    expect(r.stdout).not.toMatch(BOX);
    for (const file of media) expect(lines.some((l) => l.split('\t')[1] === file)).toBe(true);
  });
});
