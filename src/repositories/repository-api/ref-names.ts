// Which branch and tag names GitLab accepts (Gitlab::GitRefValidator): git's check-ref-format rules
// for `refs/heads/<name>` (git-check-ref-format(1)), and none that starts with `-`, names a full ref
// (`refs/heads/…`, `refs/tags/…`, `refs/remotes/…`) or is `HEAD`. Pure, so no process per check.

const DISALLOWED_PREFIXES = ['refs/heads/', 'refs/tags/', 'refs/remotes/', '-'];

export function isValidRefName(name: string): boolean {
  if (name === '' || name === 'HEAD' || name === '@') return false;
  if (DISALLOWED_PREFIXES.some((prefix) => name.startsWith(prefix))) return false;
  // Control characters, DEL, space and git's special characters (rules 4 and 5, and `\`).
  if ([...name].some((char) => char.charCodeAt(0) <= 0x20 || char.charCodeAt(0) === 0x7f) || /[~^:?*[\\]/.test(name)) return false;
  if (name.includes('..') || name.includes('@{') || name.includes('//')) return false;
  if (name.startsWith('/') || name.endsWith('/') || name.endsWith('.')) return false;
  return name.split('/').every((component) => component !== '' && !component.startsWith('.') && !component.endsWith('.lock'));
}

export const BRANCH_PREFIX = 'refs/heads/';
export const TAG_PREFIX = 'refs/tags/';
export const ZERO_OID = '0000000000000000000000000000000000000000';

/** GitLab's 40-hex rule (branch_check.rb): such a name would be read as a commit id. */
export function isHexBranchName(name: string): boolean {
  return /^[0-9a-fA-F]{40}(-\/|\/|$)/.test(name);
}
