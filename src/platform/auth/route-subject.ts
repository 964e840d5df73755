// The subject a route or page declares (`ability: { project: … }` or `{ group: … }`), found and
// checked by the kit before the handler runs, as Grape's `authorize!` in a `before` block and Gitea's
// `repoAssignment` + `reqRepoReader` do: a handler only ever sees a subject its caller may act on.
//
// Which parameter names the subject is fixed when the route is registered; a route whose declared
// subject the kit could not find (no such path parameter, or a kind of route that checks nothing)
// is refused then, so no route can declare an ability that nothing checks.
import type { Principal } from './principal.js';
import type { GroupAccess, ProjectAccess, RouteAbility, SubjectFinders } from './subjects.js';
import { authorizeGroup, authorizeProject, featureAvailable } from './policies/policy.js';
import { FeatureUnavailableError } from '../errors.js';
import type { GroupAbility, ProjectAbility, ProjectFeature } from './policies/abilities.js';

export interface DeclaredSubject {
  kind: 'project' | 'group';
  /** The ability the declaration names: checked before the handler. */
  ability: ProjectAbility | GroupAbility;
  /** The path parameter (or a namespaced pattern's named group) that names the subject. */
  param: string;
}

/**
 * The subject `ability` declares, with the parameter that names it (`param`, else `defaultParam`),
 * or null for instance and credential abilities. Throws when `hasParam` says the route cannot name
 * it: a registration error, found when the app is built.
 */
export function declaredSubject(ability: RouteAbility, route: string, defaultParam: string, hasParam: (param: string) => boolean): DeclaredSubject | null {
  const kind = 'project' in ability ? 'project' : 'group' in ability ? 'group' : null;
  if (kind === null) return null;
  const declared = ability as { project?: ProjectAbility; group?: GroupAbility; param?: string };
  const param = declared.param ?? defaultParam;
  if (!hasParam(param)) throw new Error(`${route} declares a ${kind} ability (${declared[kind]}) but has no parameter \`${param}\` naming the ${kind}: the route kit could not check it`);
  return { kind, ability: declared[kind]!, param };
}

/** A Fastify URL has `:param` as a whole segment. */
export function urlHasParam(url: string, param: string): boolean {
  return url.split('/').some((segment) => segment === `:${param}`);
}

/** A namespaced route's pattern has a named group `param`. */
export function patternHasGroup(pattern: RegExp, param: string): boolean {
  return pattern.source.includes(`(?<${param}>`);
}

export type SubjectAccess = ProjectAccess | GroupAccess;

/**
 * Find the declared subject named `idOrPath` and check the declared ability (404 unreadable, 403
 * without it). With `feature`, a project whose feature is not there for the caller is refused with a
 * FeatureUnavailableError before the ability is asked.
 */
export async function resolveSubject(
  finders: SubjectFinders | undefined,
  subject: DeclaredSubject,
  principal: Principal | null,
  idOrPath: string,
  prefetched?: Parameters<SubjectFinders['project']>[3],
  feature?: ProjectFeature,
): Promise<SubjectAccess> {
  if (!finders) throw new Error('no subject finders registered (the accounts feature registers them at setup)');
  if (subject.kind === 'group') return finders.group(principal, idOrPath, subject.ability as GroupAbility);
  if (!feature) return finders.project(principal, idOrPath, subject.ability as ProjectAbility, prefetched);
  const access = await finders.project(principal, idOrPath, 'read_project', prefetched);
  if (!featureAvailable(access, feature)) throw new FeatureUnavailableError(feature);
  authorizeProject(access, subject.ability as ProjectAbility);
  return access;
}

/**
 * What `context.project(ability?)` answers from the access the kit checked: the access itself, or,
 * asked for another ability, that ability checked on the same subject (403 without it: the subject
 * is already known to be readable).
 */
export function projectOf(subject: DeclaredSubject | null, access: SubjectAccess | null, ability?: ProjectAbility): ProjectAccess {
  if (subject?.kind !== 'project' || access === null) throw new Error('this route declares no project ability');
  if (ability !== undefined && ability !== subject.ability) authorizeProject(access, ability);
  return access as ProjectAccess;
}

/** `projectOf` for groups. */
export function groupOf(subject: DeclaredSubject | null, access: SubjectAccess | null, ability?: GroupAbility): GroupAccess {
  if (subject?.kind !== 'group' || access === null) throw new Error('this route declares no group ability');
  if (ability !== undefined && ability !== subject.ability) authorizeGroup(access, ability);
  return access as GroupAccess;
}
