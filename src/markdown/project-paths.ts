// Cross-project references name a project by its full path, or by its path alone when it lives in the
// context project's namespace (GitLab's Project#to_reference_base).

/** The full path a written project reference names: a bare path is a sibling of the context project. */
export function referencedProjectPath(written: string, context: { full_path: string }): string {
  if (written.includes('/')) return written;
  const slash = context.full_path.lastIndexOf('/');
  return slash < 0 ? written : `${context.full_path.slice(0, slash)}/${written}`;
}
