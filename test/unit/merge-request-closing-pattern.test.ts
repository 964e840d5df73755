// GitLab's issue closing pattern as merge requests and pushes read it.
import { describe, expect, it } from 'vitest';
import { closingReferences } from '../../src/merge-requests/closing-pattern.js';

describe('closingReferences', () => {
  it('reads GitLab\'s closing statements with local, relative, full and URL references', () => {
    expect(closingReferences('Closes #1')).toEqual([{ path: null, iid: 1 }]);
    expect(closingReferences('fixes #2, #3 and other#4')).toEqual([{ path: null, iid: 2 }, { path: null, iid: 3 }, { path: 'other', iid: 4 }]);
    expect(closingReferences('Resolved: group/sub/app#5')).toEqual([{ path: 'group/sub/app', iid: 5 }]);
    expect(closingReferences('Implements https://kiln.test/g/p/-/issues/6')).toEqual([{ url: 'https://kiln.test/g/p', iid: 6 }]);
    expect(closingReferences('Closing issue #7')).toEqual([{ path: null, iid: 7 }]);
  });

  it('ignores mentions that are not closing statements', () => {
    expect(closingReferences('See #1, related to #2')).toEqual([]);
    expect(closingReferences('prefixes #3')).toEqual([]);
    expect(closingReferences(null)).toEqual([]);
  });
});
