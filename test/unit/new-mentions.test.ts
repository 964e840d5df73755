// Who an issue edit newly mentions (GitLab's Issues::UpdateService#handle_added_mentions): the title
// and the description count together, before against after.
import { describe, expect, it } from 'vitest';
import { addedMentions } from '../../src/notifications/new-mentions.js';
import type { DomainEvent } from '../../src/platform/domain-events.js';

function edit(changes: string[], previous: Record<string, unknown>, current: Record<string, unknown>): DomainEvent<'issue.updated'> {
  return { kind: 'issue.updated', projectId: 1, actorId: 1, issueId: 1, changes, previous, current };
}

describe('addedMentions', () => {
  it('names the users mentioned after the edit and not before, lower case, once', () => {
    const event = edit(['description'], { title: 'Bug', description: 'cc @Alice' }, { title: 'Bug', description: 'cc @alice, @Bob and @bob, `@carol` in code' });
    expect(addedMentions(event)).toEqual(['bob']);
  });

  it('counts the title and the description together: a mention moved from one to the other is not new', () => {
    expect(addedMentions(edit(['title', 'description'], { title: 'Bug', description: 'for @alice' }, { title: 'Bug for @alice', description: 'nothing' }))).toEqual([]);
    expect(addedMentions(edit(['title'], { title: 'Bug', description: 'x' }, { title: 'Bug, @dave?', description: 'x' }))).toEqual(['dave']);
  });

  it('finds nothing when neither text changed, or when the event carries no values (queued by an older version)', () => {
    expect(addedMentions(edit(['due_date'], { due_date: null }, { due_date: '2026-12-01' }))).toEqual([]);
    const old = { kind: 'issue.updated', projectId: 1, actorId: 1, issueId: 1, changes: ['description'] } as unknown as DomainEvent<'issue.updated'>;
    expect(addedMentions(old)).toEqual([]);
  });
});
