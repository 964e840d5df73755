// Path rules shared by users, groups and projects (GitLab's NamespacePathValidator / ProjectPathValidator).
const PATH = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;

// Top-level words that the web routes use; a namespace with one of these names would shadow them.
const RESERVED_TOP_LEVEL = new Set(['-', 'api', 'oauth', 'users', 'profile', 'admin', 'groups', 'projects', 'dashboard', 'explore', 'help', 'assets', 'uploads', 'search', 'public', 'robots.txt', '.well-known', 'favicon.ico', 'health_check', 'jwt', 'login', 'import', 'snippets']);

/** Problems with a path, in GitLab's validation wording; empty when valid. */
export function pathProblems(path: string, topLevel: boolean): string[] {
  const problems: string[] = [];
  if (path === '') return ["can't be blank"];
  if (path.length > 255) problems.push('is too long (maximum is 255 characters)');
  if (!PATH.test(path) || /\.(git|atom)$/i.test(path) || path.endsWith('.') || path.includes('..')) {
    problems.push("can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'");
  }
  if (topLevel && RESERVED_TOP_LEVEL.has(path.toLowerCase())) problems.push(`${path} is a reserved name`);
  return problems;
}

/** A path derived from a name, as GitLab does when only `name` is given. */
export function pathFromName(name: string): string {
  return name.trim().replace(/[^a-zA-Z0-9_.-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '').replace(/\.(git|atom)$/i, '') || 'project';
}
