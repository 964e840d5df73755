// GitLab parameters of the project routes that Kiln refuses with a 400 naming them: storing them would
// promise what they ask for (a repository imported from a URL, a pull mirror) while nothing happens.
// Every other documented project and group setting is accepted and stored (settings-tables.ts).
import { p, type ParamRule } from '../platform/http/params.js';

export const UNSUPPORTED_PROJECT_PARAMS: Record<string, ParamRule> = {
  import_url: p.absent('is not supported'),
  mirror: p.absent('is not supported'),
};
