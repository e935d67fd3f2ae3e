// Where a link's results go: one rule for the Add-link dialog, Settings and main.
import { describe, expect, it } from 'vitest';
import {
  folderName,
  initialLinkDestination,
  linkDestinationChoices,
  linkDestinationOf,
  linksSettingFor,
  resolveLinkDestination,
  sameLinkDestination,
  type LinkDestination,
} from '../../common/link-destination.js';

const DL = '/home/ana/Downloads';
const folders = [
  { id: 'a', path: '/media/Shoot/Day1', outputDir: '/media/Shoot/Transcripts' },
  { id: 'b', path: '/media/Podcast', outputDir: null },
  { id: 'c', path: '/media/Cards', outputDir: undefined },
  { id: 'd', path: '/mnt/nas/Day1/', outputDir: '/mnt/nas/out' },
];

describe('linkDestinationChoices', () => {
  it('offers Downloads, then each watch folder with an output folder by name (same names told apart by path)', () => {
    expect(linkDestinationChoices(folders, DL)).toEqual([
      { destination: { kind: 'downloads' }, key: 'downloads', label: 'Downloads', dir: DL },
      {
        destination: { kind: 'watch-folder', folderId: 'a' },
        key: 'watch-folder:a',
        label: 'Output folder of “Day1 (/media/Shoot/Day1)”',
        dir: '/media/Shoot/Transcripts',
      },
      {
        destination: { kind: 'watch-folder', folderId: 'd' },
        key: 'watch-folder:d',
        label: 'Output folder of “Day1 (/mnt/nas/Day1/)”',
        dir: '/mnt/nas/out',
      },
    ]);
  });

  it('names a folder by its last part alone when it is the only one of that name', () => {
    const [, only] = linkDestinationChoices([folders[0]!], DL);
    expect(only?.label).toBe('Output folder of “Day1”');
  });

  it('offers Downloads alone when no watch folder has an output folder', () => {
    expect(linkDestinationChoices([folders[1]!, folders[2]!], DL).map((c) => c.key)).toEqual(['downloads']);
  });
});

describe('resolveLinkDestination', () => {
  const cases: Array<[string, LinkDestination, ReturnType<typeof resolveLinkDestination>]> = [
    ['Downloads', { kind: 'downloads' }, { ok: true, dir: DL }],
    [
      'a watch folder’s output folder',
      { kind: 'watch-folder', folderId: 'a' },
      { ok: true, dir: '/media/Shoot/Transcripts' },
    ],
    ['a typed full path', { kind: 'folder', path: ' /srv/links ' }, { ok: true, dir: '/srv/links' }],
    ['a Windows path', { kind: 'folder', path: 'D:\\Links' }, { ok: true, dir: 'D:\\Links' }],
    [
      'a removed watch folder',
      { kind: 'watch-folder', folderId: 'gone' },
      { ok: false, message: 'That watch folder is no longer watched. Choose another place for the results.' },
    ],
    [
      'a watch folder without an output folder',
      { kind: 'watch-folder', folderId: 'b' },
      {
        ok: false,
        message: 'The watch folder “Podcast” no longer has an output folder. Choose another place for the results.',
      },
    ],
    [
      'an empty folder',
      { kind: 'folder', path: '  ' },
      { ok: false, message: 'Type the folder’s full path, or choose Downloads.' },
    ],
    [
      'a relative folder',
      { kind: 'folder', path: 'Transcripts' },
      { ok: false, message: 'Give the full path of the folder, such as /home/me/Transcripts (not “Transcripts”).' },
    ],
  ];
  it.each(cases)('%s', (_name, d, expected) => {
    expect(resolveLinkDestination(d, folders, DL)).toEqual(expected);
  });
});

describe('the choice kept in Settings', () => {
  const all: LinkDestination[] = [
    { kind: 'downloads' },
    { kind: 'watch-folder', folderId: 'a' },
    { kind: 'folder', path: '/srv/links' },
  ];
  it.each(all)('%o is read back as it was kept', (d) => {
    expect(linkDestinationOf(linksSettingFor(d))).toEqual(d);
    expect(sameLinkDestination(linkDestinationOf(linksSettingFor(d)), d)).toBe(true);
  });

  it('reads settings written before the choice existed: a folder, else Downloads', () => {
    expect(linkDestinationOf({ resultsDir: '/srv/links' })).toEqual({ kind: 'folder', path: '/srv/links' });
    expect(linkDestinationOf({ resultsDir: null })).toEqual({ kind: 'downloads' });
  });

  it('tells different places apart', () => {
    expect(sameLinkDestination({ kind: 'folder', path: '/a' }, { kind: 'folder', path: '/b' })).toBe(false);
    expect(sameLinkDestination({ kind: 'downloads' }, { kind: 'watch-folder', folderId: 'a' })).toBe(false);
  });

  it('opens on the kept choice while it stands for a folder, else Downloads', () => {
    expect(initialLinkDestination({ kind: 'watch-folder', folderId: 'a' }, folders, DL)).toEqual({
      kind: 'watch-folder',
      folderId: 'a',
    });
    expect(initialLinkDestination({ kind: 'watch-folder', folderId: 'b' }, folders, DL)).toEqual({ kind: 'downloads' });
    expect(initialLinkDestination({ kind: 'watch-folder', folderId: 'gone' }, [], DL)).toEqual({ kind: 'downloads' });
  });
});

describe('folderName', () => {
  it.each([
    ['/media/Shoot/Day1', 'Day1'],
    ['/mnt/nas/Day1/', 'Day1'],
    ['C:\\Footage\\Cam A', 'Cam A'],
    ['/', '/'],
  ])('%s → %s', (p, name) => expect(folderName(p)).toBe(name));
});
