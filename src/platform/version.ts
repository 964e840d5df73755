// The GitLab version whose API Kiln speaks (the specification's era), and Kiln's own revision.
export const GITLAB_COMPAT_VERSION = '14.3.0';
export const KILN_VERSION = '0.1.0';
