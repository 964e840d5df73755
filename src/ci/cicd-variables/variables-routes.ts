// GitLab's variables APIs (lib/api/ci/variables.rb, group_variables.rb, instance_variables.rb): the
// same CRUD for a project (Maintainers), a group (Owners) and the instance (administrators).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { apiRoute, type RouteContext } from '../../platform/http/route.js';
import { p, type ParamSchema } from '../../platform/http/params.js';
import { createVariable, deleteVariable, findVariable, ownedBy, updateVariable, variableEntity, type VariableInput, type VariableOwner } from './variables-store.js';

const TAGS = ['ci_variables'];

const SURFACES = [
  { base: '/projects/:id/variables', noun: 'project', ability: { project: 'admin_cicd_variables' } as const, scoped: true },
  { base: '/groups/:id/variables', noun: 'group', ability: { group: 'admin_cicd_variables' } as const, scoped: true },
  { base: '/admin/ci/variables', noun: 'instance', ability: { instance: 'admin_all_resources' } as const, scoped: false },
] as const;

/** `filter[environment_scope]`: flat in a query string or form, nested in JSON. */
function scopeFilter(input: Record<string, unknown>): string | undefined {
  const flat = input['filter[environment_scope]'];
  if (typeof flat === 'string') return flat;
  const nested = input.filter;
  if (nested && typeof nested === 'object' && typeof (nested as Record<string, unknown>).environment_scope === 'string') return (nested as Record<string, string>).environment_scope;
  return undefined;
}

export function variablesRoutes(app: FastifyInstance, deps: Deps): void {
  for (const surface of SURFACES) {
    const owner = async (context: RouteContext<ParamSchema>): Promise<VariableOwner> => {
      if (surface.noun === 'project') return { kind: 'project', id: Number((await context.project()).project.id) };
      if (surface.noun === 'group') return { kind: 'group', id: Number((await context.group()).group.id) };
      return { kind: 'instance' };
    };
    const idParam: ParamSchema = surface.noun === 'instance' ? {} : { id: p.string.required() };
    const fields: ParamSchema = {
      variable_type: p.string.optional({ values: ['env_var', 'file'] }),
      protected: p.boolean.optional(), masked: p.boolean.optional(), raw: p.boolean.optional(),
      description: p.string.optional({ max: 255 }),
      ...(surface.scoped ? { environment_scope: p.string.optional() } : {}),
    };
    const one: ParamSchema = { ...idParam, key: p.string.required() };

    apiRoute(app, deps, {
      method: 'GET', url: surface.base, summary: `List ${surface.noun} variables`, tags: TAGS, paginated: true, ability: surface.ability,
      params: idParam,
      handler: async (context) => (await context.paginate(ownedBy(deps.db, await owner(context)).orderBy('id'))).map((row) => variableEntity(deps, row)),
    });

    apiRoute(app, deps, {
      method: 'GET', url: `${surface.base}/:key`, summary: `Get a ${surface.noun} variable`, tags: TAGS, ability: surface.ability, params: one,
      handler: async (context) => variableEntity(deps, await findVariable(deps.db, await owner(context), String(context.params.key), scopeFilter(context.input))),
    });

    apiRoute(app, deps, {
      method: 'POST', url: surface.base, summary: `Create a ${surface.noun} variable`, tags: TAGS, status: 201, ability: surface.ability,
      params: { ...idParam, key: p.string.required(), value: p.string.required(), ...fields } as ParamSchema,
      handler: async (context) => variableEntity(deps, await createVariable(deps, await owner(context), context.params as unknown as VariableInput & { key: string; value: string })),
    });

    apiRoute(app, deps, {
      method: 'PUT', url: `${surface.base}/:key`, summary: `Update a ${surface.noun} variable`, tags: TAGS, ability: surface.ability,
      params: { ...one, value: p.string.optional(), ...fields } as ParamSchema,
      handler: async (context) => {
        const variableOwner = await owner(context);
        const existing = await findVariable(deps.db, variableOwner, String(context.params.key), scopeFilter(context.input));
        return variableEntity(deps, await updateVariable(deps, variableOwner, existing, context.params as unknown as VariableInput));
      },
    });

    apiRoute(app, deps, {
      method: 'DELETE', url: `${surface.base}/:key`, summary: `Delete a ${surface.noun} variable`, tags: TAGS, ability: surface.ability, params: one,
      handler: async (context) => {
        await deleteVariable(deps.db, await findVariable(deps.db, await owner(context), String(context.params.key), scopeFilter(context.input)));
        return undefined;
      },
    });
  }
}
