// Which of a project's snippets a reader of its snippets sees, by each snippet's own visibility
// (GitLab's ProjectSnippetPolicy): members (Guests and up) and administrators every one, other
// signed-in users the internal and public ones, anonymous callers the public ones. The project's
// snippets feature is read_snippet's business (abilities.ts); this narrows within it.
import type { SnippetVisibility } from '../../db/tables/snippets.js';
import { ACCESS } from '../access-levels.js';
import type { PolicySubject } from './policy.js';

export function snippetVisibilitiesOn(subject: PolicySubject): SnippetVisibility[] {
  const { user } = subject;
  if (user && user.state !== 'active') return [];
  if (user?.admin || subject.level >= ACCESS.guest) return ['private', 'internal', 'public'];
  return user ? ['internal', 'public'] : ['public'];
}
