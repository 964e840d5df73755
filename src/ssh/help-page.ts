// /help/instance_configuration (GitLab's Help → Instance configuration): how to reach git over SSH here,
// and the fingerprints of the host keys, so that a user can check the one their client shows the first
// time it connects. Public, as GitLab's.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { html } from '../platform/web/html.js';
import { pageRoute } from '../platform/web/page-route.js';
import { page } from '../platform/web/page.js';
import { hostKeyFingerprints } from './host-key-fingerprints.js';

export function helpPages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, {
    method: 'GET', url: '/help/instance_configuration', ability: { instance: 'read_instance' }, auth: 'optional',
    handler: async () => {
      const { config } = deps;
      const fingerprints = await hostKeyFingerprints(deps);
      const example = `${config.sshUrlPrefix}<namespace>/<project>.git`;
      return page({
        title: 'Instance configuration',
        body: html`
          <h2 id="ssh-host-keys-fingerprints">SSH host keys fingerprints</h2>
          ${config.sshPort === null ? html`<p>Git over SSH is turned off on this server; clone over HTTP(S).</p>` : html`<p class="wrap-anywhere">Clone over SSH with <code>git clone ${example}</code>. The first time, your SSH client shows the server's fingerprint: it must be one of these.</p>`}
          <dl class="wrap-anywhere">
            ${fingerprints.map((row) => html`<dt>${row.algorithm}</dt><dd><code>${row.sha256}</code></dd><dd><code>${row.md5}</code></dd>`)}
          </dl>`,
      });
    },
  });
}
