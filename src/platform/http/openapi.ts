// An OpenAPI 3 document generated from the apiRoute declarations, served at /api/v4/openapi.json.
import type { FastifyInstance } from 'fastify';
import type { ParamRule, ParamSchema } from './params.js';

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

const registries = new WeakMap<FastifyInstance, OpenApiRegistry>();

export class OpenApiRegistry {
  readonly routes: RecordedRoute[] = [];
  private patterns: RegExp[] = [];
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
    for (const route of this.routes) {
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      const pathNames = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]);
      const parameters = Object.entries(route.params ?? {})
        .filter(([, rule]) => !rule.absentMessage)
        .map(([name, rule]) => ({
          name,
          in: pathNames.includes(name) ? 'path' : 'query',
          required: pathNames.includes(name) || rule.required,
          description: rule.description,
          schema: schemaOf(rule),
        }));
      for (const name of pathNames) if (!parameters.some((parameter) => parameter.name === name)) {
        parameters.push({ name, in: 'path', required: true, description: undefined, schema: { type: 'string' } });
      }
      if (route.paginated) {
        parameters.push({ name: 'page', in: 'query', required: false, description: 'Page number (default 1)', schema: { type: 'integer' } });
        parameters.push({ name: 'per_page', in: 'query', required: false, description: 'Items per page (default 20, at most 100)', schema: { type: 'integer' } });
      }
      const status = String(route.status ?? (route.method === 'POST' ? 201 : 200));
      paths[path] ??= {};
      paths[path][route.method.toLowerCase()] = {
        summary: route.summary,
        tags: route.tags,
        'x-kiln-ability': route.ability,
        parameters,
        security: route.auth === 'optional' ? [{}, { privateToken: [] }, { oauth: [] }] : [{ privateToken: [] }, { oauth: [] }],
        'x-scopes': [...(route.extraScopes ?? []), 'api', 'read_api'],
        responses: { [status]: { description: 'Success' }, '400': { description: 'Invalid parameters' }, '401': { description: 'Unauthenticated' }, '403': { description: 'Forbidden' }, '404': { description: 'Not found' } },
      };
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
    case 'json':
      return {};
    default:
      return rule.values ? { type: 'string', enum: [...rule.values] } : { type: 'string' };
  }
}

export function openApiRegistry(app: FastifyInstance): OpenApiRegistry {
  let registry = registries.get(app);
  if (!registry) {
    registry = new OpenApiRegistry();
    registries.set(app, registry);
  }
  return registry;
}
