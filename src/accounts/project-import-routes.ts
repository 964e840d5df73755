// POST /projects/remote-import (GitLab's API::ProjectImport): a project made from an export archive at
// an https URL. Kiln imports no export archives (docs/clients.md), yet the request is checked as GitLab
// checks it, so a client learns what is wrong with it: the parameters (Grape's 400 naming them), the
// URL (the RemoteFile strategy's `File url is blocked: …`, https only, no local addresses), and only
// then the 400 that says the import itself is not supported. Nothing is fetched and nothing is made.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { StatusError } from '../platform/errors.js';
import { blockedUrlReason } from '../platform/url-blocker.js';

export const REMOTE_IMPORT_UNSUPPORTED = 'Importing a project from a remote file (url) is not supported by this server';

export function projectImportRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'POST', url: '/projects/remote-import', summary: 'Import a project from an export archive at a URL (refused: not supported)', tags: ['projects'],
    ability: { instance: 'create_project' },
    params: {
      url: p.string.required({ description: 'An https URL of a project export archive' }),
      path: p.string.required(),
      name: p.string.optional(),
      namespace: p.string.optional(),
      overwrite: p.boolean.optional(),
      override_params: p.json.optional(),
    },
    handler: async ({ params }) => {
      const blocked = blockedUrlReason(params.url, { schemes: ['https'], allowLocalhost: false, allowLocalNetwork: false });
      if (blocked) throw new StatusError(400, `File url is blocked: ${blocked}`);
      throw new StatusError(400, REMOTE_IMPORT_UNSUPPORTED);
    },
  });
}
