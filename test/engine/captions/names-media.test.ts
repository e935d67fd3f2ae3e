// Which results name the media, and so are written again when a clip is renamed or moved: the
// editor formats link its path; Markdown, DOCX and the show notes carry its name as a title.
import { describe, expect, it } from 'vitest';
import { EDITOR_FORMATS, namesMedia } from '../../../main/engine/captions/render.js';
import { RESULT_FORMATS } from '../../../main/engine/settings.js';

describe('namesMedia', () => {
  it('every editor format, Markdown, DOCX and the show notes; not the captions, the text or the JSON', () => {
    const naming = RESULT_FORMATS.filter(namesMedia);
    expect(naming).toEqual(expect.arrayContaining([...EDITOR_FORMATS, 'md', 'docx', 'shownotes']));
    for (const f of ['json', 'srt', 'vtt', 'txt', 'csv'] as const) expect(namesMedia(f), f).toBe(false);
  });
});
