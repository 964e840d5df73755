// The OpenAPI 3 document generated from the apiRoute declarations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { openApiRegistry } from '../../src/platform/http/openapi.js';

let kiln: TestKiln;
let doc: any;

beforeAll(async () => {
  kiln = await testKiln();
  const response = await kiln.request('GET', '/api/v4/openapi.json');
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/json');
  doc = JSON.parse(response.body);
});
afterAll(() => kiln.close());

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

describe('GET /api/v4/openapi.json', () => {
  it('is an OpenAPI 3 document with info, servers under KILN_BASE_URL and security schemes', () => {
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(doc.servers).toEqual([{ url: 'http://kiln.test/api/v4' }]);
    expect(Object.keys(doc.components.securitySchemes)).toEqual(expect.arrayContaining(['privateToken', 'oauth']));
  });

  it('lists every registered API route with its method', () => {
    const routes = openApiRegistry(kiln.app).routes;
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      expect(doc.paths[path], path).toBeDefined();
      expect(doc.paths[path][route.method.toLowerCase()], `${route.method} ${path}`).toBeDefined();
    }
    for (const path of ['/projects', '/projects/{id}', '/groups/{id}/members', '/projects/{id}/issues/{issue_iid}/notes', '/user', '/version', '/personal_access_tokens/self']) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });

  it('every operation is well formed: summary, responses with string status codes, valid parameters', () => {
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      expect(path.startsWith('/')).toBe(true);
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      for (const [method, operation] of Object.entries<any>(item)) {
        expect(METHODS).toContain(method);
        expect(typeof operation.summary).toBe('string');
        expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
        for (const code of Object.keys(operation.responses)) expect(code).toMatch(/^[1-5]\d\d$/);
        const names = new Set<string>();
        for (const parameter of operation.parameters) {
          expect(['path', 'query', 'header', 'cookie']).toContain(parameter.in);
          expect(names.has(`${parameter.in}:${parameter.name}`)).toBe(false);
          names.add(`${parameter.in}:${parameter.name}`);
          if (parameter.in === 'path') {
            expect(parameter.required).toBe(true);
            expect(templated).toContain(parameter.name);
          }
          expect(parameter.schema).toBeTypeOf('object');
        }
        for (const name of templated) expect(names.has(`path:${name}`), `${method} ${path} declares {${name}}`).toBe(true);
      }
    }
  });

  it('documents pagination parameters on paginated lists and enums from the declared values', () => {
    const list = doc.paths['/projects'].get;
    expect(list.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(expect.arrayContaining(['page', 'per_page', 'search']));
    const visibility = list.parameters.find((parameter: { name: string }) => parameter.name === 'visibility');
    expect(visibility.schema).toEqual({ type: 'string', enum: ['private', 'internal', 'public'] });
    expect(doc.paths['/projects'].post.responses['201']).toBeDefined();
  });
});
