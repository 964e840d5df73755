// Templates (issue 38): license templates from the SPDX License List, gitignores from GitHub's
// collection, and Kiln's own Dockerfile and .gitlab-ci.yml templates; the new-project form offers the
// licenses and gitignores (through accounts' hook, accounts not knowing this feature). A project's own
// description templates (its repository's `.gitlab/issue_templates/`, `merge_request_templates/`) are
// served too, and offered on the new issue and new merge request pages through issues' hook.
import type { Feature } from '../platform/feature.js';
import { accountHooks } from '../accounts/api.js';
import { issueHooks } from '../issues/api.js';
import { templateRoutes } from './routes.js';
import { fillLicense, findLicense, listedLicenses } from './licenses.js';
import { FILE_TEMPLATES } from './file-templates.js';
import { issuableTemplates } from './template-picker.js';

export const templatesFeature: Feature = {
  name: 'templates',
  setup(deps) {
    accountHooks(deps).fileTemplates = {
      licenses: () => listedLicenses(false).map(({ key, name }) => ({ key, name })),
      gitignores: () => FILE_TEMPLATES.gitignores.list(),
      license(key, values) {
        const license = findLicense(key);
        return license && fillLicense(license.text, { year: new Date(deps.clock.now()).getUTCFullYear(), ...values });
      },
      gitignore: async (key) => (await FILE_TEMPLATES.gitignores.find(key))?.content,
    };
    issueHooks(deps).issuableTemplates = (access, type, request) => issuableTemplates(deps, access, type, request);
  },
  routes(app, deps) {
    templateRoutes(app, deps);
  },
};
