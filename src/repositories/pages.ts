// The administrator's page of storage shards (with their weights and repository counts) and of the
// group repository storage moves with their states, newest first.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { isoTime } from '../platform/clock.js';
import { html } from '../platform/web/html.js';
import { pageRoute } from '../platform/web/page-route.js';
import { page } from '../platform/web/page.js';
import { listMovesQuery, moveRows, repositoryCountsByShard, withGroups } from './finder.js';
import { GROUP_MOVES } from './move-kinds.js';
import { humanState } from './move-states.js';

const MOVES_SHOWN = 100;

export function storagePages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, {
    method: 'GET',
    url: '/admin/repository_storages',
    ability: { instance: 'admin_all_resources' },
    handler: async () => {
      const [counts, moves] = await Promise.all([repositoryCountsByShard(deps), listMovesQuery(deps, GROUP_MOVES).limit(MOVES_SHOWN).execute().then((rows) => withGroups(deps, moveRows(rows)))]);
      const countOf = (name: string) => counts.get(name) ?? 0;
      return page({
        title: 'Repository storage',
        body: html`<h2>Shards</h2>
<table id="shards"><thead><tr><th>Name</th><th>Path</th><th>Weight</th><th>Repositories</th></tr></thead><tbody>${deps.config.storages.map(
          (shard) => html`<tr data-shard="${shard.name}"><td>${shard.name}</td><td><code>${shard.path}</code></td><td>${shard.weight}</td><td>${countOf(shard.name)}</td></tr>`,
        )}</tbody></table>
<h2>Group repository storage moves</h2>
${
  moves.length
    ? html`<table id="moves"><thead><tr><th>ID</th><th>Group</th><th>From</th><th>To</th><th>State</th><th>Scheduled</th><th>Error</th></tr></thead><tbody>${moves.map(
        (move) => html`<tr data-move="${Number(move.id)}"><td>${Number(move.id)}</td><td>${move.group_full_path}</td><td>${move.source_storage_name}</td><td>${move.destination_storage_name}</td><td class="state">${humanState(move.state)}</td><td>${isoTime(move.created_at)}</td><td>${move.error_message ?? ''}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted">No moves yet. Schedule one with <code>POST /api/v4/groups/:id/repository_storage_moves</code>.</p>`
}`,
      });
    },
  });
}
