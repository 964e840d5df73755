// GET/POST /broadcast_messages and GET/PUT/DELETE /broadcast_messages/:id (lib/api/broadcast_messages.rb):
// reading needs no sign-in; writing is for administrators (401 for visitors, 403 for other users).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { BROADCAST_TYPES, THEMES, broadcastMessagesQuery, createBroadcastMessage, deleteBroadcastMessage, findBroadcastMessage, updateBroadcastMessage, type BroadcastMessageInput } from './messages.js';
import { broadcastMessageEntity } from './entity.js';

const TAGS = ['broadcast_messages'];
const ADMIN = { instance: 'admin_all_resources' } as const;

const FIELDS = {
  starts_at: p.string.optional({ description: 'ISO 8601; defaults to now' }),
  ends_at: p.string.optional({ description: 'ISO 8601; defaults to one hour from now' }),
  color: p.string.optional({ description: 'Background colour (hex), kept for GitLab clients; pages use the theme' }),
  font: p.string.optional({ description: 'Text colour (hex), kept for GitLab clients' }),
  theme: p.string.optional({ values: [...THEMES] }),
  broadcast_type: p.string.optional({ values: [...BROADCAST_TYPES] }),
  dismissable: p.boolean.optional(),
  target_path: p.string.optional({ description: 'Pages the message is shown on; * matches anything' }),
  target_access_levels: p.json.optional({ description: 'Roles (10, 20, 30, 40, 50) shown the message on their projects and groups: an array or comma-separated' }),
};

function inputOf(params: Record<string, unknown>): BroadcastMessageInput {
  const input: Record<string, unknown> = {};
  for (const name of ['message', ...Object.keys(FIELDS)]) if (params[name] !== undefined) input[name] = params[name];
  return input as BroadcastMessageInput;
}

export function broadcastMessagesRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/broadcast_messages', summary: 'Every broadcast message, newest first', tags: TAGS, paginated: true,
    ability: { instance: 'read_instance' }, auth: 'optional',
    handler: async ({ paginate }) => {
      const now = deps.clock.now();
      return (await paginate(broadcastMessagesQuery(deps))).map((row) => broadcastMessageEntity(row, now));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/broadcast_messages/:id', summary: 'One broadcast message', tags: TAGS,
    ability: { instance: 'read_instance' }, auth: 'optional',
    params: { id: p.integer.required() },
    handler: async ({ params }) => broadcastMessageEntity(await findBroadcastMessage(deps, params.id), deps.clock.now()),
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/broadcast_messages', summary: 'Create a broadcast message (administrators)', tags: TAGS, status: 201,
    ability: ADMIN,
    params: { message: p.string.required(), ...FIELDS },
    handler: async ({ params }) => broadcastMessageEntity(await createBroadcastMessage(deps, inputOf(params)), deps.clock.now()),
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/broadcast_messages/:id', summary: 'Change a broadcast message (administrators)', tags: TAGS,
    ability: ADMIN,
    params: { id: p.integer.required(), message: p.string.optional(), ...FIELDS },
    handler: async ({ params }) => broadcastMessageEntity(await updateBroadcastMessage(deps, params.id, inputOf(params)), deps.clock.now()),
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/broadcast_messages/:id', summary: 'Delete a broadcast message (administrators)', tags: TAGS,
    ability: ADMIN,
    params: { id: p.integer.required() },
    handler: async ({ params }) => {
      await deleteBroadcastMessage(deps, params.id);
      return undefined;
    },
  });
}
