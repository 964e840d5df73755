// What other features plug into issues, registered in their setup. They use issues (through
// api.ts), so issues must not import them (docs/architecture.md, "Boundaries"): it asks these hooks
// instead. Held per app instance (per Deps), never per module.
import type { Deps } from '../platform/deps.js';
import type { IssueRow } from './entities.js';
import type { Html } from '../platform/web/html.js';
import type { PageContext } from '../platform/web/page-route.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';

/** What the new issue and new merge request pages ask of a project's description templates. */
export interface IssuableTemplateRequest {
  /** `issuable_template` as the page was asked for it (absent: undefined). */
  asked: string | undefined;
  /** The page has no description of its own yet, so a `Default` template may fill it. */
  fresh: boolean;
  /** The page the picker's GET form reloads, and the parameters it keeps. */
  action: string;
  hidden?: Record<string, string>;
  /** The id of the description's text area. */
  textarea: string;
}

/** The description a template fills (if any), the picker (inside the page's form) and the GET form it belongs to. */
export interface IssuableTemplates {
  content: string | undefined;
  control: Html | '';
  form: Html | '';
}

export const NO_ISSUABLE_TEMPLATES: IssuableTemplates = { content: undefined, control: '', form: '' };

export interface IssueHooks {
  /**
   * Which of these issues the user is subscribed to (the notifications feature registers it), each with
   * its assignees' ids, the user's explicit subscription row (`explicit`, null without one) and its
   * count of comments (`userNotes`), as issue-presentation-queries.ts reads them.
   */
  subscribedIssueIds?: (user: { id: number; username: string }, issues: Array<Pick<IssueRow, 'id' | 'author_id' | 'description'> & { assigneeIds: number[]; explicit: boolean | null; userNotes: number }>) => Promise<Set<number>>;
  /** The issue page's "Add a to do" / "Mark as done" button for its reader (the todos feature registers it); `self` is the issue's page. */
  todoButton?: (context: PageContext, issue: { id: number; projectId: number }, self: string) => Promise<Html>;
  /** The project's description templates for the new issue and new merge request pages (the templates feature registers it). */
  issuableTemplates?: (access: ProjectAccess, type: 'issues' | 'merge_requests', request: IssuableTemplateRequest) => Promise<IssuableTemplates>;
}

const hooks = new WeakMap<Deps, IssueHooks>();

export function issueHooks(deps: Deps): IssueHooks {
  let registered = hooks.get(deps);
  if (!registered) hooks.set(deps, (registered = {}));
  return registered;
}
