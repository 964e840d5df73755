// The OpenAPI 3 document generated from the apiRoute declarations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { openApiRegistry } from '../../src/platform/http/openapi.js';
import { routeInventory } from '../../src/platform/http/route-inventory.js';

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
    for (const path of ['/projects', '/projects/{id}', '/groups/{id}/members', '/projects/{id}/issues/{issue_iid}/notes', '/user', '/version', '/personal_access_tokens/self', '/snippet_repository_storage_moves/{repository_storage_move_id}', '/snippets/{id}/repository_storage_moves/{repository_storage_move_id}']) {
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

  it('names every route the server answers under /api/v4, the document itself included', () => {
    const entries = routeInventory(kiln.app).filter((entry) => entry.path.startsWith('/api/v4/'));
    const gets = new Set(entries.filter((entry) => entry.method === 'GET').map((entry) => entry.path));
    for (const entry of entries) {
      if (entry.method === 'HEAD' && gets.has(entry.path)) continue;
      const path = entry.path.slice('/api/v4'.length).replace(/:(\w+)/g, '{$1}');
      expect(doc.paths[path]?.[entry.method.toLowerCase()], `${entry.method} ${path}`).toBeDefined();
    }
    expect(doc.paths['/openapi.json'].get['x-kiln-ability']).toEqual({ credential: 'none' });
    for (const path of ['/namespaces', '/namespaces/{id}', '/namespaces/{id}/exists', '/search', '/projects/{id}/search', '/groups/{id}/search', '/markdown', '/application/settings', '/metadata']) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });

  it('declares the ability of every operation', () => {
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) expect(operation['x-kiln-ability'], `${method} ${path}`).toBeTypeOf('object');
    }
  });

  it('puts the body parameters of POST, PUT and PATCH in a request body (JSON or form), never in the query', () => {
    let bodies = 0;
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const method of ['post', 'put', 'patch']) {
        const operation = item[method];
        if (!operation) continue;
        expect(operation.parameters.filter((parameter: { in: string }) => parameter.in !== 'path'), `${method} ${path}`).toEqual([]);
        if (!operation.requestBody) continue;
        bodies += 1;
        const { content } = operation.requestBody;
        expect(Object.keys(content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded']);
        expect(content['application/json'].schema.type).toBe('object');
      }
    }
    expect(bodies).toBeGreaterThan(20);
    const create = doc.paths['/projects/{id}/issues'].post;
    expect(create.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    expect(create.requestBody.required).toBe(true);
    expect(create.requestBody.content['application/json'].schema.required).toContain('title');
    expect(create.requestBody.content['application/json'].schema.properties.title).toEqual({ type: 'string' });
    const settings = doc.paths['/application/settings'].put.requestBody.content['application/x-www-form-urlencoded'].schema;
    expect(settings.properties.signup_enabled).toEqual({ type: 'boolean' });
    expect(settings.properties.default_project_visibility).toEqual({ type: 'string', enum: ['private', 'internal', 'public'] });
    expect(settings.required).toBeUndefined();
  });

  it('keeps the parameters of GET and DELETE in the query', () => {
    const search = doc.paths['/search'].get;
    expect(search.requestBody).toBeUndefined();
    expect(search.parameters.filter((parameter: { in: string }) => parameter.in === 'query').map((parameter: { name: string }) => parameter.name)).toEqual(expect.arrayContaining(['search', 'scope', 'page', 'per_page']));
    expect(search.parameters.find((parameter: { name: string }) => parameter.name === 'search').required).toBe(true);
  });
});
