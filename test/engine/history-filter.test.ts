// History's one filter: the app's History and `sluice history` both ask it, for the index and for
// the rows read here.
import { describe, expect, it } from 'vitest';
import { historyMatcher, historyQueryOf, type FilterRow } from '../../main/engine/history-filter.js';

const row = (r: Partial<FilterRow> = {}): FilterRow => ({
  name: 'Interview Jürgen Köln.mp4',
  state: 'completed',
  templateId: 'default',
  created: 1000,
  folder: 'f1',
  ...r,
});

describe('historyQueryOf', () => {
  it('leaves out what filters nothing and folds the search once', () => {
    expect(historyQueryOf({ states: [], computers: [], search: '' })).toEqual({});
    expect(historyQueryOf({ states: ['failed'], search: 'JÜRGEN  köln', from: 0 })).toEqual({
      states: ['failed'],
      from: 0,
      search: { terms: ['jurgen', 'koln'], whole: 'jurgen  koln' },
    });
  });
});

describe('historyMatcher', () => {
  const cases: Array<[string, Parameters<typeof historyMatcher>[0], Partial<FilterRow>, boolean]> = [
    ['no filter keeps every row', {}, {}, true],
    ['words of the name, any order, accents ignored', { search: 'koln jurgen' }, {}, true],
    ['a word the name lacks', { search: 'berlin' }, {}, false],
    ['the computer that processed it is searched too', { search: 'bay 2' }, { host: 'EDIT-BAY-2' }, true],
    ['a state asked for', { states: ['completed'] }, {}, true],
    ['a state not asked for', { states: ['failed'] }, {}, false],
    ['a template not asked for', { templateIds: ['other'] }, {}, false],
    ['a folder asked for', { folderIds: ['f1'] }, {}, true],
    ['a stream started elsewhere has no folder', { folderIds: ['f1'] }, { folder: undefined }, false],
    ['computers, letter case ignored', { computers: ['edit-bay-2'] }, { host: 'EDIT-BAY-2' }, true],
    ['a computer filter leaves out jobs no computer processed', { computers: ['edit-bay-2'] }, {}, false],
    ['created before `from`', { from: 1001 }, {}, false],
    ['created after `to`', { to: 999 }, {}, false],
    ['the range is inclusive', { from: 1000, to: 1000 }, {}, true],
  ];
  it.each(cases)('%s', (_, filter, r, kept) => {
    const { folder, ...rest } = row(r);
    const given = 'folder' in r && r.folder === undefined ? rest : { ...rest, folder: folder! };
    expect(historyMatcher(filter)(given)).toBe(kept);
  });

  it('without the name, keeps a row found by its transcript on the other filters alone', () => {
    const matches = historyMatcher({ search: 'berlin', states: ['completed'] });
    expect(matches(row(), { byName: false })).toBe(true);
    expect(matches(row({ state: 'failed' }), { byName: false })).toBe(false);
  });

  it('folds names with the fold it is given (History caches them)', () => {
    const seen: string[] = [];
    const matches = historyMatcher({ search: 'koln' }, (n) => (seen.push(n), n.toLowerCase()));
    expect(matches(row({ name: 'KOLN.mp4' }))).toBe(true);
    expect(seen).toEqual(['KOLN.mp4']);
  });
});
