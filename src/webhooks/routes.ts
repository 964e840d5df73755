// REST surface of hooks (lib/api/project_hooks.rb, group_hooks, system_hooks.rb): parse, ability,
// one action or finder, entity. Project hooks need admin_webhook (Maintainers), group hooks the group's
// admin_webhook (Owners) on the premium tier and up, system hooks an administrator.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { ApiError } from '../platform/http/api-error.js';
import { p } from '../platform/http/params.js';
import { hookEntity, hookLogEntity } from './entities.js';
import { hookInput, hookParams } from './hook-input.js';
import { createHook, deleteHook, updateHook, type HookOwner } from './save-hook.js';
import { findHook, hooksQuery, recentLogsQuery, firstProjectOfGroup } from './finder.js';
import { SYSTEM_HOOK_TEST_DATA, TEST_TRIGGERS, testOutcomeMessage, testProjectHook, testSystemHook } from './test-hook.js';
import { resendLog } from './deliver-hook.js';

const TAGS = ['hooks'];

function requirePremium(deps: Deps): void {
  // GitLab answers a feature of a higher tier as an unknown route.
  if (deps.config.tier === 'free') throw new ApiError(404, { message: '404 Not Found' });
}

export function hooksRoutes(app: FastifyInstance, deps: Deps): void {
  const now = () => deps.clock.now();

  // Project and group hooks share their shape: the owner comes from the path's project or group.
  for (const scope of ['projects', 'groups'] as const) {
    const type = scope === 'projects' ? 'ProjectHook' : 'GroupHook';
    const ability = scope === 'projects' ? ({ project: 'admin_webhook' } as const) : ({ group: 'admin_webhook' } as const);
    const owner = async (context: { project(): Promise<{ project: { id: number } }>; group(): Promise<{ group: { id: number } }> }): Promise<HookOwner> => {
      if (scope === 'groups') requirePremium(deps);
      return scope === 'projects' ? { type, projectId: Number((await context.project()).project.id) } : { type, groupId: Number((await context.group()).group.id) };
    };
    const noun = scope === 'projects' ? 'project' : 'group';

    apiRoute(app, deps, {
      method: 'GET', url: `/${scope}/:id/hooks`, summary: `List ${noun} hooks`, tags: TAGS, paginated: true, ability,
      params: { id: p.string.required() },
      handler: async (context) => (await context.paginate(hooksQuery(deps, await owner(context as never)))).map((hook) => hookEntity(hook, now())),
    });

    apiRoute(app, deps, {
      method: 'GET', url: `/${scope}/:id/hooks/:hook_id`, summary: `Get a ${noun} hook`, tags: TAGS, ability,
      params: { id: p.string.required(), hook_id: p.integer.required() },
      handler: async (context) => hookEntity(await findHook(deps, await owner(context as never), context.params.hook_id), now()),
    });

    apiRoute(app, deps, {
      method: 'POST', url: `/${scope}/:id/hooks`, summary: `Add a ${noun} hook`, tags: TAGS, ability,
      params: { id: p.string.required(), ...hookParams(type, true) },
      handler: async (context) => hookEntity(await createHook(deps, await owner(context as never), hookInput(type, context.params)), now()),
    });

    apiRoute(app, deps, {
      method: 'PUT', url: `/${scope}/:id/hooks/:hook_id`, summary: `Edit a ${noun} hook`, tags: TAGS, ability,
      params: { id: p.string.required(), hook_id: p.integer.required(), ...hookParams(type, false) },
      handler: async (context) => {
        const hook = await findHook(deps, await owner(context as never), context.params.hook_id as number);
        return hookEntity(await updateHook(deps, hook, hookInput(type, context.params)), now());
      },
    });

    apiRoute(app, deps, {
      method: 'DELETE', url: `/${scope}/:id/hooks/:hook_id`, summary: `Delete a ${noun} hook`, tags: TAGS, ability,
      params: { id: p.string.required(), hook_id: p.integer.required() },
      handler: async (context) => {
        await deleteHook(deps, await findHook(deps, await owner(context as never), context.params.hook_id));
        return undefined;
      },
    });

    apiRoute(app, deps, {
      method: 'POST', url: `/${scope}/:id/hooks/:hook_id/test/:trigger`, summary: `Trigger a test event for a ${noun} hook`, tags: TAGS, ability,
      params: { id: p.string.required(), hook_id: p.integer.required(), trigger: p.string.required({ values: TEST_TRIGGERS }) },
      handler: async (context) => {
        const hookOwner = await owner(context as never);
        const hook = await findHook(deps, hookOwner, context.params.hook_id);
        // A group hook is tested against the group's first project that has the event.
        const projectId = hookOwner.projectId ?? (await firstProjectOfGroup(deps, hookOwner.groupId!));
        if (projectId === null) throw new ApiError(422, { message: 'Ensure the group has a project.' });
        const outcome = testOutcomeMessage(await testProjectHook(deps, hook, projectId, context.actor.user.id, context.params.trigger));
        if (!outcome.ok) throw new ApiError(422, { message: outcome.message });
        return { message: '201 Created' };
      },
    });

    apiRoute(app, deps, {
      method: 'GET', url: `/${scope}/:id/hooks/:hook_id/events`, summary: `Recent deliveries of a ${noun} hook (7 days)`, tags: TAGS, paginated: true, ability,
      params: { id: p.string.required(), hook_id: p.integer.required() },
      handler: async (context) => {
        const hook = await findHook(deps, await owner(context as never), context.params.hook_id);
        return (await context.paginate(recentLogsQuery(deps, Number(hook.id)))).map(hookLogEntity);
      },
    });

    apiRoute(app, deps, {
      method: 'POST', url: `/${scope}/:id/hooks/:hook_id/events/:hook_log_id/resend`, summary: `Resend a delivery of a ${noun} hook`, tags: TAGS, ability,
      params: { id: p.string.required(), hook_id: p.integer.required(), hook_log_id: p.integer.required() },
      handler: async (context) => {
        const hook = await findHook(deps, await owner(context as never), context.params.hook_id);
        const outcome = await resendLog(deps, hook, context.params.hook_log_id);
        if (!outcome) throw new ApiError(404, { message: '404 Not found' });
        return { response_status: outcome.status === null ? 'internal error' : String(outcome.status) };
      },
    });
  }

  const system: HookOwner = { type: 'SystemHook' };
  const admin = { instance: 'admin_all_resources' } as const;

  apiRoute(app, deps, {
    method: 'GET', url: '/hooks', summary: 'List system hooks', tags: TAGS, paginated: true, ability: admin,
    handler: async ({ paginate }) => (await paginate(hooksQuery(deps, system))).map((hook) => hookEntity(hook, now())),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/hooks/:id', summary: 'Get a system hook', tags: TAGS, ability: admin,
    params: { id: p.integer.required() },
    handler: async ({ params }) => hookEntity(await findHook(deps, system, params.id), now()),
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/hooks', summary: 'Add a system hook', tags: TAGS, ability: admin,
    params: hookParams('SystemHook', true),
    handler: async ({ params }) => hookEntity(await createHook(deps, system, hookInput('SystemHook', params)), now()),
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/hooks/:hook_id', summary: 'Edit a system hook', tags: TAGS, ability: admin,
    params: { hook_id: p.integer.required(), ...hookParams('SystemHook', false) },
    handler: async ({ params }) => hookEntity(await updateHook(deps, await findHook(deps, system, params.hook_id as number), hookInput('SystemHook', params)), now()),
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/hooks/:id', summary: 'Test a system hook', tags: TAGS, ability: admin,
    params: { id: p.integer.required() },
    handler: async ({ params }) => {
      const hook = await findHook(deps, system, params.id);
      await testSystemHook(deps, hook);
      return SYSTEM_HOOK_TEST_DATA;
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/hooks/:id', summary: 'Delete a system hook', tags: TAGS, ability: admin,
    params: { id: p.integer.required() },
    handler: async ({ params }) => {
      const hook = await findHook(deps, system, params.id);
      await deleteHook(deps, hook);
      return hookEntity(hook, now());
    },
  });
}
