// `sluice process --glossary` against the sandbox, on speech whose words include names plain
// recognition spells its own way ("move flow", "Jurgen"): the enhanced transcription spells them
// as the glossary does, and that spelling reaches SRT, VTT, TXT and DOCX; the job says how many
// words were respelled, in its line and in --json.
import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import type { ExportResult } from '../../main/service/types.js';
import { makeHeardSpeechWav, makeMediaDir } from '../helpers/media.js';
import { buildCli, runCli } from './run-cli.js';

const run = promisify(execFile);
const KEY = 'glossary-spelling-key';
const SAID = 'We shipped MoveFlow to Jürgen on Monday. Jürgen says MoveFlow works.';
let dir: string;
let sandbox: Sandbox;

beforeAll(async () => {
  buildCli();
  dir = await makeMediaDir('sluice-glossary-spelling-');
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
}, 180_000);

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The text of a DOCX's body, its runs joined. */
async function docxText(file: string): Promise<string> {
  const { stdout } = await run('unzip', ['-p', file, 'word/document.xml']);
  return stdout.replace(/<[^>]+>/g, '');
}

describe('sluice process --glossary: the glossary’s spelling in everything the editor reads', () => {
  it('writes MoveFlow and Jürgen in SRT, VTT, TXT and DOCX, and says how many words were respelled', async () => {
    const media = await makeHeardSpeechWav(dir, 'names.wav', SAID);
    const terms = path.join(dir, 'terms.txt');
    await writeFile(terms, 'MoveFlow\nJürgen\n');
    const r = await runCli(
      [
        'process',
        media,
        '--glossary',
        terms,
        '--formats',
        'json,srt,vtt,txt,docx',
        '--json',
        '--base-url',
        sandbox.url,
        '--state-dir',
        path.join(dir, 'state'),
      ],
      { SLUICE_API_KEY: KEY },
      undefined,
      90_000,
    );
    expect(r.code, r.out).toBe(0);

    // The plain transcription spells the names as heard; the enhanced one as the glossary says.
    const saved = JSON.parse(await readFile(path.join(dir, 'names.json'), 'utf8')) as ExportResult;
    expect(saved.transcription!.text).toContain('move flow to Jurgen');
    expect(saved.enhancedTranscription!.transcription.text).toContain('MoveFlow to Jürgen');

    const read = (ext: string) => readFile(path.join(dir, `names.${ext}`), 'utf8');
    const docx = await docxText(path.join(dir, 'names.docx'));
    for (const [format, text] of [
      ['srt', await read('srt')],
      ['vtt', await read('vtt')],
      ['txt', await read('txt')],
      ['docx', docx],
    ] as const) {
      expect(text.match(/MoveFlow/g), format).toHaveLength(2);
      expect(text.match(/Jürgen/g), format).toHaveLength(2);
      expect(text, format).not.toMatch(/move flow|Jurgen/i);
    }

    const out = JSON.parse(r.stdout) as { jobs: Array<{ notes: string[] }> };
    expect(out.jobs[0]!.notes).toContain('Glossary applied: 4 words respelled.');
  }, 120_000);
});
