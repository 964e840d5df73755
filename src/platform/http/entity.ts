// An entity (GitLab's Grape entities): the wire shape of a record, defined ONCE as a list of fields,
// each with its JSON type and how its value comes from the source. Both the object (`present`) and
// a serialiser compiled from the same list (`serialize`, fast-json-stringify, as Fastify compiles
// response schemas) come from that definition, so they cannot disagree: adding a field is one line.
//
// `present` is an object literal compiled once per entity (the fields in the definition's order,
// which is the order GitLab writes them in), so every object of an entity shares one hidden class;
// an optional field is added after the literal, and only when its value is not undefined.
import fastJson, { type Schema } from 'fast-json-stringify';

export interface Field<S, T> {
  schema: Record<string, unknown>;
  value: (source: S) => T;
  /** Left out of the object when its value is undefined (e.g. `permissions` for anonymous callers). */
  optional?: boolean;
}

type Fields<S> = Record<string, Field<S, any>>;

type Required<F> = { [K in keyof F as F[K] extends { optional: true } ? never : K]: F[K] extends Field<any, infer T> ? T : never };
type Optional<F> = { [K in keyof F as F[K] extends { optional: true } ? K : never]?: F[K] extends Field<any, infer T> ? Exclude<T, undefined> : never };
export type Shape<F> = Required<F> & Optional<F>;

export interface Entity<S, T> {
  readonly schema: Record<string, unknown>;
  present(source: S): T;
  /** `JSON.stringify(value)`'s bytes for a value `present` built, faster. */
  serialize(value: T): string;
}

const STRING = { type: 'string' };
const NULLABLE_STRING = { type: ['string', 'null'] };
const INTEGER = { type: 'integer' };
const NULLABLE_INTEGER = { type: ['integer', 'null'] };
const BOOLEAN = { type: 'boolean' };

function typed<T>(schema: Record<string, unknown>) {
  return <S>(value: (source: S) => T): Field<S, T> => ({ schema, value });
}

/** The field kinds an entity is written with. */
export const field = {
  string: typed<string>(STRING),
  nullableString: typed<string | null>(NULLABLE_STRING),
  integer: typed<number>(INTEGER),
  nullableInteger: typed<number | null>(NULLABLE_INTEGER),
  boolean: typed<boolean>(BOOLEAN),
  nullableBoolean: typed<boolean | null>({ type: ['boolean', 'null'] }),
  strings: typed<string[]>({ type: 'array', items: STRING }),
  /** Always null: an attribute GitLab has and Kiln has nothing for. */
  null: <S>(): Field<S, null> => ({ schema: { type: 'null' }, value: () => null }),
  /** Another entity, nested: `of` gives its source. */
  entity: <S, N, T>(nested: Entity<N, T>, of: (source: S) => N): Field<S, T> => ({ schema: nested.schema, value: (source) => nested.present(of(source)) }),
  /** Another entity, or null. */
  nullableEntity: <S, N, T>(nested: Entity<N, T>, of: (source: S) => N | null): Field<S, T | null> => ({
    schema: { anyOf: [nested.schema, { type: 'null' }] },
    value: (source) => {
      const inner = of(source);
      return inner === null ? null : nested.present(inner);
    },
  }),
  /** A field present only when its value is not undefined. */
  optional: <S, T>(inner: Field<S, T | undefined>): Field<S, T | undefined> & { optional: true } => ({ ...inner, optional: true }),
};

/** An object schema whose required properties are every non-optional field. */
export function objectSchema(fields: Fields<any>): Record<string, unknown> {
  const names = Object.keys(fields);
  return {
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, fields[name].schema])),
    required: names.filter((name) => !fields[name].optional),
  };
}

export function defineEntity<S>() {
  return <F extends Fields<S>>(fields: F): Entity<S, Shape<F>> & { readonly fields: F } => {
    const names = Object.keys(fields);
    if (names.some((name) => name === '__proto__')) throw new Error('defineEntity: __proto__ is not a field name');
    const required = names.filter((name) => !fields[name].optional);
    const optional = names.filter((name) => fields[name].optional);
    const literal = required.map((name, index) => `${JSON.stringify(name)}: r[${index}](s)`).join(', ');
    const additions = optional.map((name, index) => `v = o[${index}](s); if (v !== undefined) e[${JSON.stringify(name)}] = v;`).join(' ');
    const present = new Function('r', 'o', `return function present(s) { const e = { ${literal} }; let v; ${additions} return e; };`)(
      required.map((name) => fields[name].value),
      optional.map((name) => fields[name].value),
    ) as (source: S) => Shape<F>;
    const schema = objectSchema(fields);
    return { fields, schema, present, serialize: fastJson(schema as unknown as Schema) as (value: Shape<F>) => string };
  };
}

/** The entity of `fields` picked from another's (GitLab's entities that expose a subset, e.g. BasicProjectDetails). */
export function pickFields<F extends Fields<any>, K extends keyof F>(fields: F, names: readonly K[]): Pick<F, K> {
  return Object.fromEntries(names.map((name) => [name, fields[name]])) as Pick<F, K>;
}
