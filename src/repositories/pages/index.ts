// The repository pages under a project's path: files, history, commits and comparisons, each read
// through the repository API's finders and open to those who may download the code.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { namespacedPage } from '../../platform/web/page-route.js';
import type { PageContext } from '../../platform/web/page-route.js';
import type { PageOutcome } from '../../platform/web/page.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { COMMIT_FILE_PATTERN, COMMIT_PATTERN, COMMIT_TEXT_PATTERN, renderCommit, renderCommitFile, renderCommitText } from './commit-page.js';
import { TREE_PATTERN, renderTree } from './tree-page.js';
import { BLOB_PATTERN, renderBlob } from './blob-page.js';
import { RAW_PATTERN, renderRaw } from './raw-page.js';
import { BLAME_PATTERN, renderBlame } from './blame-page.js';
import { COMMITS_PATTERN, renderCommits } from './commits-page.js';
import { FILES_PATTERN, FIND_FILE_PATTERN, renderFiles, renderFindFile } from './find-file-page.js';
import { REF_SWITCH_PATTERN, REFS_PATTERN, renderRefs, switchRef } from './refs-page.js';
import { ARCHIVE_PATTERN, downloadArchive } from './archive-page.js';
import { COMPARE_FILE_PATTERN, COMPARE_FORM_PATTERN, COMPARE_PATTERN, renderCompare, renderCompareFile, renderCompareForm } from './compare-page.js';
import { DIFF_LINES_PATTERN, renderDiffLines } from './diff-lines-page.js';
import { BRANCHES_PATTERN, DELETE_BRANCH_PATTERN, NEW_BRANCH_PATTERN, createBranchFromForm, deleteBranchFromForm, renderBranches, renderNewBranch } from './branches-page.js';
import { DELETE_TAG_PATTERN, NEW_TAG_PATTERN, TAGS_PATTERN, createTagFromForm, deleteTagFromForm, renderNewTag, renderTags } from './tags-page.js';
import { GRAPHS_PATTERN, renderGraphs } from './graphs-page.js';
import type { ProjectAbility } from '../../platform/auth/policies/abilities.js';
import { CREATE_FILE_PATTERN, DELETE_FILE_PATTERN, EDIT_FILE_PATTERN, NEW_FILE_PATTERN, UPDATE_FILE_PATTERN, createFile, deleteFile, renderEditFile, renderNewFile, updateFile } from './edit-file-pages.js';
import { COMMIT_COMMENTS_PATTERN, commentOnCommitFromForm } from './commit-notes-section.js';
import { PICK_PATTERN, pickFromForm } from './commit-pick-forms.js';
import { NEW_DIR_PATTERN, UPLOAD_PATTERN, createDir, renderNewDir, renderUpload, uploadFile } from './upload-pages.js';

type Render = (context: PageContext, access: ProjectAccess) => Promise<PageOutcome>;

export function repositoryPages(app: FastifyInstance, deps: Deps): void {
  const read = { project: 'download_code' } as const;
  // Order matters where patterns overlap: the first that matches takes the path.
  const pages: [RegExp, Render][] = [
    [COMMIT_TEXT_PATTERN, renderCommitText],
    [COMMIT_FILE_PATTERN, renderCommitFile],
    [COMMIT_PATTERN, renderCommit],
    [TREE_PATTERN, renderTree],
    [BLOB_PATTERN, renderBlob],
    [RAW_PATTERN, renderRaw],
    [BLAME_PATTERN, renderBlame],
    [COMMITS_PATTERN, renderCommits],
    [FIND_FILE_PATTERN, renderFindFile],
    [FILES_PATTERN, renderFiles],
    [REF_SWITCH_PATTERN, switchRef],
    [REFS_PATTERN, renderRefs],
    [ARCHIVE_PATTERN, downloadArchive],
    [COMPARE_FORM_PATTERN, renderCompareForm],
    [COMPARE_FILE_PATTERN, renderCompareFile],
    [COMPARE_PATTERN, renderCompare],
    [DIFF_LINES_PATTERN, renderDiffLines],
    [BRANCHES_PATTERN, renderBranches],
    [TAGS_PATTERN, renderTags],
    [GRAPHS_PATTERN, renderGraphs],
  ];
  for (const [pattern, render] of pages) namespacedPage(app, deps, { method: 'GET', pattern, ability: read, auth: 'optional', handler: async (context) => render(context, await context.project()) });
  // Forms and what they post, each with the ability it needs.
  const writes: ['GET' | 'POST', RegExp, ProjectAbility, Render][] = [
    ['GET', NEW_BRANCH_PATTERN, 'push_code', renderNewBranch],
    ['POST', NEW_BRANCH_PATTERN, 'push_code', createBranchFromForm],
    ['POST', DELETE_BRANCH_PATTERN, 'push_code', deleteBranchFromForm],
    ['GET', NEW_TAG_PATTERN, 'admin_tag', renderNewTag],
    ['POST', NEW_TAG_PATTERN, 'admin_tag', createTagFromForm],
    ['POST', DELETE_TAG_PATTERN, 'admin_tag', deleteTagFromForm],
    ['GET', NEW_FILE_PATTERN, 'push_code', renderNewFile],
    ['POST', CREATE_FILE_PATTERN, 'push_code', createFile],
    ['GET', EDIT_FILE_PATTERN, 'push_code', renderEditFile],
    ['POST', UPDATE_FILE_PATTERN, 'push_code', updateFile],
    ['POST', DELETE_FILE_PATTERN, 'push_code', deleteFile],
    ['GET', UPLOAD_PATTERN, 'push_code', renderUpload],
    ['POST', UPLOAD_PATTERN, 'push_code', uploadFile],
    ['GET', NEW_DIR_PATTERN, 'push_code', renderNewDir],
    ['POST', NEW_DIR_PATTERN, 'push_code', createDir],
    ['POST', COMMIT_COMMENTS_PATTERN, 'create_note', commentOnCommitFromForm],
    ['POST', PICK_PATTERN, 'push_code', pickFromForm],
  ];
  for (const [method, pattern, ability, render] of writes) namespacedPage(app, deps, { method, pattern, ability: { project: ability }, handler: async (context) => render(context, await context.project()) });
}
