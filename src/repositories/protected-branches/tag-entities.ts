// The protected tag as GitLab's API presents it (lib/api/entities/protected_tag.rb: its name and
// create access levels, no id). Kiln grants access by role only: user, group and deploy key are null.
import { accessLevelEntity } from './entities.js';
import type { ProtectedTagRule } from './tag-finder.js';

export function protectedTagEntity(rule: ProtectedTagRule) {
  return {
    name: rule.tag.name,
    create_access_levels: rule.create.map((level) => ({ ...accessLevelEntity(level), deploy_key_id: null })),
  };
}
