// Every route and page the app serves declares what its caller must be allowed to do; a route that
// declares nothing (or names an ability no policy knows) fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { routeInventory } from '../../src/platform/http/route-inventory.js';
import { GROUP_ABILITIES, INSTANCE_ABILITIES, PROJECT_ABILITIES } from '../../src/platform/auth/policies/abilities.js';
import type { RouteAbility } from '../../src/platform/auth/subjects.js';

let kiln: TestKiln;
beforeAll(async () => {
  kiln = await testKiln();
});
afterAll(async () => {
  await kiln?.close();
});

function known(ability: RouteAbility): boolean {
  if ('project' in ability) return ability.project in PROJECT_ABILITIES;
  if ('group' in ability) return ability.group in GROUP_ABILITIES;
  if ('instance' in ability) return (INSTANCE_ABILITIES as readonly string[]).includes(ability.instance);
  return ['integration_key', 'oauth', 'monitoring_allowlist', 'none', 'dispatch', 'signed_link', 'git_http', 'ci_runner', 'ci_job'].includes(ability.credential);
}

describe('every registered route and page', () => {
  it('declares a known ability', () => {
    const routes = routeInventory(kiln.app);
    // API routes, pages, namespaced routes (git, alerts) and the OAuth/operations endpoints.
    expect(routes.length).toBeGreaterThan(100);
    const undeclared = routes.filter((route) => !route.ability).map((route) => `${route.method} ${route.path}`);
    expect(undeclared).toEqual([]);
    const unknown = routes.filter((route) => route.ability && !known(route.ability)).map((route) => `${route.method} ${route.path} ${JSON.stringify(route.ability)}`);
    expect(unknown).toEqual([]);
  });

  it('has every declared project or group ability checked by its kit before the handler', () => {
    const subjectRoutes = routeInventory(kiln.app).filter((route) => route.ability && ('project' in route.ability || 'group' in route.ability));
    // API routes, fixed-URL pages and namespaced pages (the project and group pages) alike.
    expect(subjectRoutes.length).toBeGreaterThan(100);
    expect(subjectRoutes.some((route) => route.path.startsWith('/^'))).toBe(true);
    expect(subjectRoutes.filter((route) => !route.subjectChecked).map((route) => `${route.method} ${route.path}`)).toEqual([]);
  });

  it('includes the namespaced pages and git routes', () => {
    const paths = routeInventory(kiln.app).map((route) => route.path);
    expect(paths.some((path) => path.includes('alert_management'))).toBe(true);
    expect(paths.some((path) => path.includes('info\\/refs') || path.includes('info/refs'))).toBe(true);
  });

  it('publishes each API route’s ability in the OpenAPI document', async () => {
    const document = (await kiln.api('GET', '/openapi.json')).body;
    const operations = Object.values(document.paths as Record<string, Record<string, any>>).flatMap((methods) => Object.values(methods));
    expect(operations.length).toBeGreaterThan(50);
    expect(operations.filter((operation) => !operation['x-kiln-ability'])).toEqual([]);
  });
});
