// What other features may use of templates: Kiln's own .gitlab-ci.yml templates by name, which CI's
// `include: template:` reads. Everything else in this folder is internal (docs/architecture.md,
// "Boundaries").
import { KILN_CI_YMLS } from './kiln-ci-ymls.js';

/** The text of Kiln's .gitlab-ci.yml template `name` (its key, as `GET /templates/gitlab_ci_ymls` lists it), or undefined. */
export function ciYmlTemplate(name: string): string | undefined {
  return Object.hasOwn(KILN_CI_YMLS, name) ? KILN_CI_YMLS[name] : undefined;
}
