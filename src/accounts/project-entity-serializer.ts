// The Project entity's shape (entities.ts, projectEntity), compiled once into a serialiser
// (fast-json-stringify, as Fastify compiles route response schemas): `GET /projects/:id` writes its
// answer with it when the read cache cannot replay one, in less time than JSON.stringify takes over
// the same object (docs/performance.md). The schema must name every field the entity has, in the
// entity's order: a field it lacks would be dropped from the answer. The serialiser's test compares
// its output with JSON.stringify's, byte for byte, over entities of every shape.
import fastJson, { type Schema } from 'fast-json-stringify';
import type { projectEntity } from './entities.js';

const string = { type: 'string' } as const;
const nullableString = { type: ['string', 'null'] } as const;
const integer = { type: 'integer' } as const;
const nullableInteger = { type: ['integer', 'null'] } as const;
const boolean = { type: 'boolean' } as const;
const strings = { type: 'array', items: string } as const;

/** An object whose every property is present (projectEntity writes each one, null or not). */
function object(properties: Record<string, object>, optional: string[] = []) {
  return { type: 'object', properties, required: Object.keys(properties).filter((name) => !optional.includes(name)) };
}

const NAMESPACE = object({
  id: integer,
  name: string,
  path: string,
  kind: string,
  full_path: string,
  parent_id: nullableInteger,
  avatar_url: nullableString,
  web_url: string,
});

const ACCESS = { anyOf: [object({ access_level: integer, notification_level: integer }), { type: 'null' }] };

export const PROJECT_ENTITY_SCHEMA = object(
  {
    id: integer,
    description: nullableString,
    name: string,
    name_with_namespace: string,
    path: string,
    path_with_namespace: string,
    created_at: nullableString,
    default_branch: nullableString,
    tag_list: strings,
    topics: strings,
    ssh_url_to_repo: string,
    http_url_to_repo: string,
    web_url: string,
    readme_url: { type: 'null' },
    avatar_url: nullableString,
    forks_count: integer,
    star_count: integer,
    last_activity_at: nullableString,
    namespace: NAMESPACE,
    visibility: string,
    creator_id: nullableInteger,
    issues_enabled: boolean,
    issues_access_level: string,
    repository_access_level: string,
    archived: boolean,
    _links: object({ self: string, issues: string, members: string, events: string }),
    permissions: object({ project_access: ACCESS, group_access: { type: 'null' } }),
  },
  ['permissions'],
);

export const serializeProjectEntity: (entity: ReturnType<typeof projectEntity>) => string = fastJson(PROJECT_ENTITY_SCHEMA as Schema);
