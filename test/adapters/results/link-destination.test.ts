import { describe, expect, it } from 'vitest';
import {
  downloadsFolder,
  linkResultsDir,
  resultAnchor,
  type DownloadsEnv,
} from '../../../main/adapters/results/link-destination.js';
import { createJob } from '../../../main/engine/job.js';
import { defaultSettings, WATCH_FOLDER } from '../../../main/engine/settings.js';

const env = (over: Partial<DownloadsEnv> & { files?: Record<string, string> } = {}): DownloadsEnv => ({
  platform: 'linux',
  home: '/home/ana',
  env: {},
  read: (f) => over.files?.[f],
  ...over,
});

describe('downloadsFolder', () => {
  it.each<[string, DownloadsEnv, string]>([
    ['macOS', env({ platform: 'darwin', home: '/Users/ana' }), '/Users/ana/Downloads'],
    ['Linux without user-dirs', env(), '/home/ana/Downloads'],
    [
      'Linux, localised user-dirs.dirs',
      env({ files: { '/home/ana/.config/user-dirs.dirs': '# comment\nXDG_DOWNLOAD_DIR="$HOME/Téléchargements"\n' } }),
      '/home/ana/Téléchargements',
    ],
    [
      'Linux, XDG_CONFIG_HOME elsewhere',
      env({ env: { XDG_CONFIG_HOME: '/cfg' }, files: { '/cfg/user-dirs.dirs': 'XDG_DOWNLOAD_DIR="/data/dl"\n' } }),
      '/data/dl',
    ],
    ['Linux, XDG_DOWNLOAD_DIR in the environment wins', env({ env: { XDG_DOWNLOAD_DIR: '/srv/in' } }), '/srv/in'],
    [
      'Linux, set to $HOME (disabled)',
      env({ files: { '/home/ana/.config/user-dirs.dirs': 'XDG_DOWNLOAD_DIR="$HOME/"\n' } }),
      '/home/ana/Downloads',
    ],
    [
      'Linux, a relative value (invalid per the spec)',
      env({ files: { '/home/ana/.config/user-dirs.dirs': 'XDG_DOWNLOAD_DIR="Downloads2"\n' } }),
      '/home/ana/Downloads',
    ],
  ])('%s', (_name, e, expected) => {
    expect(downloadsFolder(e)).toBe(expected);
  });
});

describe('linkResultsDir and resultAnchor', () => {
  it('Settings win over Downloads', () => {
    const s = defaultSettings();
    expect(s.links.resultsDir).toBeNull();
    expect(linkResultsDir(s, env())).toBe('/home/ana/Downloads');
    expect(linkResultsDir({ ...s, links: { resultsDir: '/media/out' } }, env())).toBe('/media/out');
  });

  it('a watch folder chosen in Add link gives its output folder; once it is gone, Downloads', () => {
    const s = defaultSettings();
    const folder = WATCH_FOLDER.parse({ id: 'f1', path: '/media/Day1', outputDir: '/media/Transcripts' });
    const chosen = { ...s, watchFolders: [folder], links: { resultsDir: null, watchFolderId: 'f1' } };
    expect(linkResultsDir(chosen, env())).toBe('/media/Transcripts');
    expect(linkResultsDir({ ...chosen, watchFolders: [] }, env())).toBe('/home/ana/Downloads');
  });

  it("a link job's results are named after the link's file name in its folder; a file's beside it", () => {
    const base = { id: 'j', origin: { kind: 'manual' as const }, seq: 1, templateId: 't', params: {} };
    const link = createJob(
      {
        ...base,
        source: { path: 'https://x.org/v/My%20Clip.mp4?sig=1', size: 30, mtimeMs: 0 },
        sourceKind: 'link',
        resultsDir: '/media/out',
      },
      0,
    );
    expect(resultAnchor(link)).toBe('/media/out/My Clip.mp4');
    const file = createJob({ ...base, source: { path: '/m/a.wav', size: 3, mtimeMs: 1 } }, 0);
    expect(resultAnchor(file)).toBe('/m/a.wav');
    expect(file.sourceKind).toBeUndefined();
  });
});
