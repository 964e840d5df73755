// What an administrator's Test of a system hook sends for pushes, tag pushes and repository updates:
// GitLab's TestHooks::SystemService sends fixed samples for these (Gitlab::DataBuilder::Push and
// ::Repository `sample_data`, the same push sample for both push triggers), not an instance's data,
// as a system hook belongs to no project. The fields are GitLab's; the values are an example.
const SHA_BEFORE = '1b12f15a11fc6e62177bef08f47bc7b5ce50b141';
const SHA_AFTER = 'b83d6e391c22777fca1ed3012fce84f633d7fed0';

export const PUSH_SAMPLE = Object.freeze({
  object_kind: 'push',
  event_name: 'push',
  before: SHA_BEFORE,
  after: SHA_AFTER,
  ref: 'refs/heads/main',
  checkout_sha: SHA_AFTER,
  message: 'Hello World',
  user_id: 4,
  user_name: 'Jane Doe',
  user_email: 'jane@example.com',
  user_avatar: 'https://example.com/uploads/user/avatar/4/avatar.png',
  project_id: 15,
  project: {
    id: 15,
    name: 'example',
    description: '',
    web_url: 'https://example.com/group/example',
    avatar_url: null,
    git_ssh_url: 'git@example.com:group/example.git',
    git_http_url: 'https://example.com/group/example.git',
    namespace: 'group',
    visibility_level: 0,
    path_with_namespace: 'group/example',
    default_branch: 'main',
  },
  commits: [
    {
      id: SHA_AFTER,
      message: 'Add a search box to the projects list\n\nThe body of the commit message',
      title: 'Add a search box to the projects list',
      timestamp: '2026-05-13T18:18:08+00:00',
      url: `https://example.com/group/example/-/commit/${SHA_AFTER}`,
      author: { name: 'Jane Doe', email: 'jane@example.com' },
    },
  ],
  total_commits_count: 1,
  push_options: { ci: { skip: true } },
});

export const REPOSITORY_UPDATE_SAMPLE = Object.freeze({
  event_name: 'repository_update',
  user_id: 10,
  user_name: 'jane.doe',
  user_email: 'jane@example.com',
  user_avatar: 'https://example.com/uploads/user/avatar/10/avatar.png',
  project_id: 40,
  changes: [{ before: SHA_BEFORE, after: SHA_AFTER, ref: 'refs/heads/main' }],
  refs: ['refs/heads/main'],
});
