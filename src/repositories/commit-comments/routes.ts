// Comments on a commit (doc/api/commits.md: `POST/GET /projects/:id/repository/commits/:sha/comments`,
// GitLab's CommitNote entity) and its discussions (doc/api/discussions.md, the notes machinery's
// routes with the commit kind). A comment given `path` and `line` sits on that line of the commit's
// diff when the diff has it (GitLab's legacy diff note), and is a plain comment otherwise.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { p } from '../../platform/http/params.js';
import { ForbiddenError } from '../../platform/errors.js';
import { userBasic } from '../../accounts/api.js';
import { isoTime } from '../../platform/clock.js';
import { discussionRoutes, usersById, type NoteRow } from '../../issues/api.js';
import { repositoryRoute } from '../repository-api/route-kit.js';
import { diffOf } from '../repository-api/commits-finder.js';
import { commentOnCommit, commitNoteableKind, findCommitNoteable } from './commit-noteable.js';
import { findDiffLine, lineCode, storedLine, type StoredLine } from './diff-line.js';

const TAGS = ['commits'];

function commitNoteEntity(baseUrl: string, note: NoteRow, author: Parameters<typeof userBasic>[1] | undefined) {
  const line = storedLine(note);
  return {
    note: note.body,
    path: line?.path ?? null,
    line: line?.line ?? null,
    line_type: line?.line_type ?? null,
    author: author ? userBasic(baseUrl, author) : null,
    created_at: isoTime(note.created_at),
  };
}

export function commitCommentRoutes(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.baseUrl;

  repositoryRoute(app, deps, {
    method: 'GET', url: '/projects/:id/repository/commits/:sha/comments', summary: 'The comments on a commit, oldest first', tags: TAGS, paginated: true,
    ability: { project: 'download_code' }, auth: 'optional',
    params: { id: p.string.required(), sha: p.string.required() },
    handler: async ({ params, project, paginate }) => {
      const noteable = await findCommitNoteable(deps, await project(), params.sha);
      const rows = await paginate(
        deps.db.selectFrom('notes').selectAll().where('noteable_type', '=', 'Commit').where('noteable_id', '=', noteable.id).where('system', '=', 0).orderBy('created_at').orderBy('id'),
      );
      const users = await usersById(deps.db, rows.map((row) => row.author_id));
      return rows.map((row) => commitNoteEntity(baseUrl, row, users.get(Number(row.author_id))));
    },
  });

  repositoryRoute(app, deps, {
    method: 'POST', url: '/projects/:id/repository/commits/:sha/comments', summary: 'Comment on a commit, or on a line of its diff', tags: TAGS,
    ability: { project: 'create_note' },
    params: {
      id: p.string.required(),
      sha: p.string.required(),
      note: p.string.required(),
      path: p.string.optional(),
      line: p.integer.optional(),
      line_type: p.string.optional({ values: ['new', 'old'] }),
    },
    handler: async ({ params, project, actor }) => {
      const access = await project();
      const noteable = await findCommitNoteable(deps, access, params.sha);
      if (!commitNoteableKind.canComment(access, noteable)) throw new ForbiddenError();
      let line: StoredLine & { code: string } | null = null;
      if (params.path !== undefined && params.line !== undefined) {
        const file = (await diffOf(noteable.found)).find((diff) => diff.new_path === params.path);
        const found = file ? findDiffLine(file.diff, params.line, params.line_type ?? null) : null;
        if (found) line = { path: params.path, line: found.newLine, line_type: found.type, code: lineCode(params.path, found) };
      }
      const note = await commentOnCommit(deps, actor.user, noteable, params.note, {
        extra: line
          ? (trx, created) =>
              trx
                .updateTable('notes')
                .set({ line_code: line.code, position: JSON.stringify({ path: line.path, line: line.line, line_type: line.line_type }) })
                .where('id', '=', created.id)
                .returningAll()
                .executeTakeFirstOrThrow()
          : undefined,
      });
      const users = await usersById(deps.db, [note.author_id]);
      return commitNoteEntity(baseUrl, note, users.get(Number(note.author_id)));
    },
  });

  discussionRoutes(app, deps, commitNoteableKind);
}
