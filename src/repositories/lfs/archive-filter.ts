// LFS content in repository archives (GitLab's `include_lfs_blobs`, true by default): `git archive`
// applies the archived tree's `.gitattributes` filters to each file it writes, so an archive run with
// a `filter.lfs.smudge` of Kiln's own turns every `filter=lfs` pointer into its object's content. The
// filter is a small shell script in a scratch directory beside the list of the objects this project
// links (oid and size): a pointer to anything else — another project's object, a lost file, a file
// that only looks like a pointer — stays the pointer it is, as GitLab leaves it. git holds one file at
// a time in memory while filtering it (its filters are not streamed); the archive itself is.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Deps } from '../../platform/deps.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { projectLfsEnabled } from '../../accounts/api.js';

export interface ArchiveLfsFilter {
  /** git's `-c` options that install the filter (before the `archive` command). */
  gitOptions: string[];
  /** Removes the scratch directory, once the archive has ended. */
  dispose: () => Promise<void>;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

// Reads the blob git hands over; prints the object when it is a pointer (under 1024 bytes, the spec's
// first line, one oid and one size) to an object the project links and whose file is there.
function smudgeScript(root: string): string {
  return `#!/bin/sh
root=${quote(root)}
dir=$(dirname "$0")
blob=$(mktemp "$dir/blob.XXXXXX") || exit 1
trap 'rm -f "$blob"' EXIT
cat > "$blob"
object=
if [ "$(wc -c < "$blob")" -lt 1024 ]; then
  case "$(head -n 1 "$blob")" in
  'version https://git-lfs.github.com/spec/v1' | 'version https://hawser.github.com/spec/v1')
    oid=$(sed -n 's/^oid sha256:\\([0-9a-f]\\{64\\}\\)$/\\1/p' "$blob")
    size=$(sed -n 's/^size \\([0-9]\\{1,16\\}\\)$/\\1/p' "$blob")
    if [ -n "$oid" ] && [ -n "$size" ] && grep -qxF "$oid $size" "$dir/linked"; then
      object="$root/$(printf %s "$oid" | cut -c1-2)/$(printf %s "$oid" | cut -c3-4)/$(printf %s "$oid" | cut -c5-)"
    fi
  esac
fi
if [ -n "$object" ] && [ -f "$object" ]; then cat "$object"; else cat "$blob"; fi
`;
}

/** The filter for an archive of `project`, or null when it has no LFS content to put in. */
export async function archiveLfsFilter(deps: Deps, project: ProjectRow): Promise<ArchiveLfsFilter | null> {
  if (!deps.config.lfsEnabled || !projectLfsEnabled(project)) return null;
  const rows = await deps.db
    .selectFrom('lfs_objects_projects')
    .innerJoin('lfs_objects', 'lfs_objects.id', 'lfs_objects_projects.lfs_object_id')
    .select(['lfs_objects.oid', 'lfs_objects.size'])
    .where('lfs_objects_projects.project_id', '=', Number(project.id))
    .execute();
  if (!rows.length) return null;
  const dir = await mkdtemp(join(tmpdir(), 'kiln-archive-lfs-'));
  const dispose = () => rm(dir, { recursive: true, force: true });
  try {
    await writeFile(join(dir, 'linked'), rows.map((row) => `${row.oid} ${Number(row.size)}\n`).join(''));
    await writeFile(join(dir, 'smudge.sh'), smudgeScript(deps.config.lfsPath));
  } catch (error) {
    await dispose();
    throw error;
  }
  // Not required: should the script fail, git writes the blob as it is (the pointer).
  const gitOptions = ['-c', `filter.lfs.smudge=sh ${quote(join(dir, 'smudge.sh'))}`, '-c', 'filter.lfs.required=false'];
  return { gitOptions, dispose };
}
