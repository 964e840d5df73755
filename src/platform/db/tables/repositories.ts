// Tables of the repositories feature: where each container's bare repository lives, and group
// and snippet repository storage moves (GitLab's REST API documentation).
import type { Generated } from 'kysely';

/** What a repository belongs to: a group (its wiki), a project (its code), a project's wiki or a snippet. */
export type RepositoryContainerType = 'group' | 'project' | 'project_wiki' | 'snippet';

/** A group's wiki repository, a project's repository, a project's wiki or a snippet's, on one shard of KILN_STORAGES. */
export interface RepositoriesTable {
  id: Generated<number>;
  container_type: RepositoryContainerType;
  container_id: number;
  shard: string;
  /** Relative to the shard's path; derived from the container id, never from user input. */
  disk_path: string;
  /** Pushes since the last housekeeping that reset it (repositories/housekeeping). */
  pushes_since_gc: Generated<number>;
  /** While a housekeeping run is queued or running: when its lease ends. */
  housekeeping_leased_until: number | null;
  created_at: number;
  updated_at: number;
}

export interface RepositoryPushLeasesTable {
  id: Generated<number>;
  container_type: 'group' | 'project' | 'snippet';
  container_id: number;
  expires_at: number;
}

export type MoveState = 'initial' | 'scheduled' | 'started' | 'finished' | 'failed' | 'replicated' | 'cleanup_failed';

/** What a storage move of any kind records (repositories/move-kinds.ts), beside its container's id. */
export interface StorageMoveColumns {
  id: Generated<number>;
  state: MoveState;
  source_storage_name: string;
  destination_storage_name: string;
  error_message: string | null;
  created_at: number;
  updated_at: number;
}

export interface GroupRepositoryStorageMovesTable extends StorageMoveColumns {
  group_id: number;
}

export interface SnippetRepositoryStorageMovesTable extends StorageMoveColumns {
  snippet_id: number;
}

/** A protected branch rule of a project: a branch name or a wildcard (`release/*`). */
export interface ProtectedBranchesTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  allow_force_push: number;
  code_owner_approval_required: number;
  created_at: number;
  updated_at: number;
}

/** Who may push to or merge into the branches a rule matches: an access level (0, 30, 40 or 60). */
export interface ProtectedBranchAccessLevelsTable {
  id: Generated<number>;
  protected_branch_id: number;
  action: 'push' | 'merge';
  access_level: number;
}

/** A protected tag rule of a project: a tag name or a wildcard (`v*`). */
export interface ProtectedTagsTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  created_at: number;
  updated_at: number;
}

/** Who may create the tags a rule matches: an access level (0, 30, 40 or 60). */
export interface ProtectedTagCreateAccessLevelsTable {
  id: Generated<number>;
  protected_tag_id: number;
  access_level: number;
}

/** A commit with comments: what its notes are keyed by (noteable_type 'Commit'). */
export interface CommitNoteablesTable {
  id: Generated<number>;
  project_id: number;
  commit_sha: string;
  created_at: number;
}

export interface RepositoriesTables {
  repositories: RepositoriesTable;
  group_repository_storage_moves: GroupRepositoryStorageMovesTable;
  snippet_repository_storage_moves: SnippetRepositoryStorageMovesTable;
  repository_push_leases: RepositoryPushLeasesTable;
  protected_branches: ProtectedBranchesTable;
  protected_branch_access_levels: ProtectedBranchAccessLevelsTable;
  protected_tags: ProtectedTagsTable;
  protected_tag_create_access_levels: ProtectedTagCreateAccessLevelsTable;
  commit_noteables: CommitNoteablesTable;
  lfs_objects: LfsObjectsTable;
  lfs_objects_projects: LfsObjectsProjectsTable;
  lfs_file_locks: LfsFileLocksTable;
  repository_page_caches: RepositoryPageCachesTable;
}

/** What a repository page computed once for a commit (repositories/page-caches.ts): a tree's last commits, a file's blame or its highlighted lines. */
export interface RepositoryPageCachesTable {
  id: Generated<number>;
  project_id: number;
  commit_sha: string;
  /** 'highlight': `commit_sha` is the content's id (blob or Git LFS object), `data` its highlighted lines. */
  kind: 'tree' | 'blame' | 'highlight';
  /** The directory ('' for the root) or the file. */
  path: string;
  /** JSON, its shape by kind (page-caches.ts). */
  data: string;
  created_at: number;
}

/** A Git LFS object, stored once for the instance under its oid (repositories/lfs/object-store.ts). */
export interface LfsObjectsTable {
  id: Generated<number>;
  /** SHA-256 of the content, lower-case hex. */
  oid: string;
  size: number;
  created_at: number;
}

/** A project may serve this object: it was uploaded to the project (GitLab's lfs_objects_projects). */
export interface LfsObjectsProjectsTable {
  id: Generated<number>;
  lfs_object_id: number;
  project_id: number;
  created_at: number;
}

/** A lock of the LFS locks API: one per (project, path). */
export interface LfsFileLocksTable {
  id: Generated<number>;
  project_id: number;
  user_id: number;
  path: string;
  created_at: number;
}
