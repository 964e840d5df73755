// A new board of a project or group (GitLab's Boards::CreateService): named, no lists yet; the page
// shows Open and Closed on every board.
import type { Deps } from '../../platform/deps.js';
import { ValidationError } from '../../platform/errors.js';
import { checkLength } from '../../platform/http/params.js';
import type { BoardRow } from './finder.js';
import type { BoardParent } from './finder.js';

/** GitLab's name of the board a project's board page starts with. */
export const DEFAULT_BOARD_NAME = 'Development';

export function checkBoardName(name: string): string {
  const errors: Record<string, string[]> = {};
  if (name.trim() === '') errors.name = ["can't be blank"];
  checkLength(errors, 'name', name, 255);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return name.trim();
}

export async function createBoard(deps: Deps, parent: BoardParent, name: string): Promise<BoardRow> {
  const now = deps.clock.now();
  return deps.db
    .insertInto('boards')
    .values({ project_id: 'project' in parent ? Number(parent.project.id) : null, group_id: 'group' in parent ? Number(parent.group.id) : null, name: checkBoardName(name), created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}
