// GitLab's Entities::License (the license templates) and Entities::TemplatesList. The choosealicense
// summary GitLab adds (description, conditions, permissions, limitations) is not in the SPDX list:
// those are null and empty.
import { POPULAR, type License } from './licenses.js';

export function licenseEntity(license: License, content: string) {
  return {
    key: license.key,
    name: license.name,
    nickname: null,
    popular: POPULAR.has(license.key),
    html_url: license.url,
    source_url: license.url,
    description: null,
    conditions: [],
    permissions: [],
    limitations: [],
    content,
  };
}

export function templateListEntity(license: License) {
  return { key: license.key, name: license.name };
}
