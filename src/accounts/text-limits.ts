// GitLab's model length limits on account records, checked in the actions so the API and the pages
// refuse alike (docs/security.md, Limits). GitLab 14.3 is Kiln's era; where it had no limit on a
// profile field, the limit is the one GitLab added later (UserDetail::DEFAULT_FIELD_LENGTH).

/** Project, Namespace and User `name` (app/models/project.rb, namespace.rb, user.rb). */
export const NAME_MAX = 255;
/** Project `description` (app/models/project.rb). */
export const PROJECT_DESCRIPTION_MAX = 2000;
/** Group (Namespace) `description` (app/models/namespace.rb). */
export const GROUP_DESCRIPTION_MAX = 255;

/** Profile fields (app/models/user_detail.rb): bio 255, pronouns 50, the others DEFAULT_FIELD_LENGTH 500. */
export const PROFILE_FIELD_MAX = {
  bio: 255,
  pronouns: 50,
  location: 500,
  organization: 500,
  website_url: 500,
} as const;
