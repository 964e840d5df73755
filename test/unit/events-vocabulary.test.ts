import { describe, expect, it } from 'vitest';
import type { PushData } from '../../src/platform/events/vocabulary.js';
import { actionName } from '../../src/events/vocabulary.js';
import { dayEdges } from '../../src/events/finder.js';

const push = (action: PushData['action']): PushData => ({ commit_count: 1, action, ref_type: 'branch', commit_from: null, commit_to: null, ref: 'main', commit_title: null, ref_count: null });

describe('actionName (GitLab’s REST API documentation)', () => {
  it.each([
    ['pushed', null, push('created'), 'pushed new'],
    ['pushed', null, push('removed'), 'deleted'],
    ['pushed', null, push('pushed'), 'pushed to'],
    ['closed', 'Issue', null, 'closed'],
    ['merged', 'MergeRequest', null, 'accepted'],
    ['joined', null, null, 'joined'],
    ['left', null, null, 'left'],
    ['expired', null, null, 'removed due to membership expiration from'],
    ['destroyed', 'Milestone', null, 'destroyed'],
    ['commented', 'Note', null, 'commented on'],
    ['created', null, null, 'created'],
    ['approved', 'MergeRequest', null, 'approved'],
    ['created', 'Issue', null, 'opened'],
    ['reopened', 'Issue', null, 'opened'],
    ['updated', 'Issue', null, 'opened'],
  ] as const)('%s on %s → %s', (action, targetType, pushData, expected) => {
    expect(actionName({ action, target_type: targetType, push_data: pushData })).toBe(expected);
  });
});

describe('dayEdges', () => {
  it('makes before the start of its day and after the start of the next day (both days excluded)', () => {
    expect(dayEdges({ before: '2026-03-01', after: '2026-02-28' })).toEqual({ before: Date.parse('2026-03-01T00:00:00Z'), after: Date.parse('2026-03-01T00:00:00Z') });
    expect(dayEdges({ after: '2024-12-31' }).after).toBe(Date.parse('2025-01-01T00:00:00Z'));
    expect(dayEdges({})).toEqual({ before: undefined, after: undefined });
  });
});
