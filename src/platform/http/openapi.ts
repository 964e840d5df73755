// An OpenAPI 3 document generated from the apiRoute declarations, served at /api/v4/openapi.json.
// Path parameters are `in: path`; the other parameters of GET and DELETE are the query, those of
// POST, PUT and PATCH the request body (JSON or a form, as Grape reads either). Routes under /api/v4
// that do not go through apiRoute (the document itself) are listed from the route inventory, so the
// document names every route the server answers.
import type { FastifyInstance } from 'fastify';
import type { ParamRule, ParamSchema } from './params.js';
import { routeInventory } from './route-inventory.js';

interface RecordedRoute {
  method: string;
  url: string;
  summary: string;
  tags: string[];
  params?: ParamSchema;
  extraScopes?: string[];
  paginated?: boolean;
  status?: number;
  auth?: 'required' | 'optional';
  ability: unknown;
}

interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  schema: Record<string, unknown>;
}

const registries = new WeakMap<FastifyInstance, OpenApiRegistry>();

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const PREFIX = '/api/v4';

export class OpenApiRegistry {
  readonly routes: RecordedRoute[] = [];
  private patterns: RegExp[] = [];

  constructor(private readonly app?: FastifyInstance) {}

  add(route: RecordedRoute): void {
    this.routes.push(route);
    const source = route.url.split('/').map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
    this.patterns.push(new RegExp(`^/api/v4${source}/?$`));
  }

  /** Whether some API route (of any method) has this path; the 404 handler turns that into a 405. */
  matchesPath(path: string): boolean {
    return this.patterns.some((pattern) => pattern.test(path));
  }

  document(baseUrl: string, version: string): Record<string, unknown> {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const route of [...this.routes, ...this.otherRoutes()]) {
      paths[openApiPath(route.url)] ??= {};
      paths[openApiPath(route.url)][route.method.toLowerCase()] = operation(route);
    }
    return {
      openapi: '3.0.3',
      info: { title: 'Kiln REST API v4', version },
      servers: [{ url: `${baseUrl}/api/v4` }],
      components: {
        securitySchemes: {
          privateToken: { type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN' },
          oauth: { type: 'http', scheme: 'bearer' },
        },
      },
      paths,
    };
  }

  /** Routes under /api/v4 registered without apiRoute, from the inventory (HEAD twins of GETs left out). */
  private otherRoutes(): RecordedRoute[] {
    if (!this.app) return [];
    const declared = new Set(this.routes.map((route) => `${route.method} ${route.url}`));
    const entries = routeInventory(this.app).filter((entry) => entry.path.startsWith(`${PREFIX}/`));
    const gets = new Set(entries.filter((entry) => entry.method === 'GET').map((entry) => entry.path));
    return entries
      .filter((entry) => !(entry.method === 'HEAD' && gets.has(entry.path)))
      .map((entry) => ({ method: entry.method, url: entry.path.slice(PREFIX.length), entryAbility: entry.ability }))
      .filter((entry) => !declared.has(`${entry.method} ${entry.url}`))
      .map((entry) => ({
        method: entry.method,
        url: entry.url,
        summary: `${entry.method} ${entry.url}`,
        tags: ['other'],
        auth: 'optional' as const,
        ability: entry.entryAbility,
      }));
  }
}

function openApiPath(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}');
}

function operation(route: RecordedRoute): Record<string, unknown> {
  const pathNames = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]);
  const declared = Object.entries(route.params ?? {}).filter(([, rule]) => !rule.absentMessage);
  const inBody = BODY_METHODS.has(route.method);
  const parameters: Parameter[] = [];
  for (const name of pathNames) {
    const rule = route.params?.[name];
    parameters.push({ name, in: 'path', required: true, description: rule?.description, schema: rule ? schemaOf(rule) : { type: 'string' } });
  }
  const others = declared.filter(([name]) => !pathNames.includes(name));
  if (!inBody) for (const [name, rule] of others) parameters.push({ name, in: 'query', required: rule.required, description: rule.description, schema: schemaOf(rule) });
  if (route.paginated && !inBody) {
    parameters.push({ name: 'page', in: 'query', required: false, description: 'Page number (default 1)', schema: { type: 'integer' } });
    parameters.push({ name: 'per_page', in: 'query', required: false, description: 'Items per page (default 20, at most 100)', schema: { type: 'integer' } });
  }
  const status = String(route.status ?? (route.method === 'POST' ? 201 : 200));
  return {
    summary: route.summary,
    tags: route.tags,
    'x-kiln-ability': route.ability,
    parameters,
    ...(inBody && others.length ? { requestBody: requestBody(others) } : {}),
    security: route.auth === 'optional' ? [{}, { privateToken: [] }, { oauth: [] }] : [{ privateToken: [] }, { oauth: [] }],
    'x-scopes': [...(route.extraScopes ?? []), 'api', 'read_api'],
    responses: { [status]: { description: 'Success' }, '400': { description: 'Invalid parameters' }, '401': { description: 'Unauthenticated' }, '403': { description: 'Forbidden' }, '404': { description: 'Not found' } },
  };
}

/** The body parameters as one object schema, accepted as JSON or as a form. */
function requestBody(params: Array<[string, ParamRule]>): Record<string, unknown> {
  const required = params.filter(([, rule]) => rule.required).map(([name]) => name);
  const schema = {
    type: 'object',
    properties: Object.fromEntries(params.map(([name, rule]) => [name, { ...schemaOf(rule), ...(rule.description ? { description: rule.description } : {}) }])),
    ...(required.length ? { required } : {}),
  };
  return {
    required: required.length > 0,
    content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
  };
}

function schemaOf(rule: ParamRule): Record<string, unknown> {
  switch (rule.type) {
    case 'integer':
      return { type: 'integer' };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'string[]':
      return { type: 'array', items: { type: 'string' } };
    case 'integer[]':
      return { type: 'array', items: { type: 'integer' } };
    case 'json':
      return {};
    default:
      return rule.values ? { type: 'string', enum: [...rule.values] } : { type: 'string' };
  }
}

export function openApiRegistry(app: FastifyInstance): OpenApiRegistry {
  let registry = registries.get(app);
  if (!registry) {
    registry = new OpenApiRegistry(app);
    registries.set(app, registry);
  }
  return registry;
}
