// The Link header of a page is remembered (platform/http/pagination.ts); what it is remembered by must
// include everything it is built from, or one instance's links would leak into another's.
import { describe, expect, it } from 'vitest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageOf, setPageHeaders } from '../../src/platform/http/pagination.js';
import { InstanceCaches } from '../../src/platform/instance-caches.js';

// One app instance's caches, as app.ts hands them to its server: the links are remembered there.
const server = { caches: new InstanceCaches() };

function linkFor(baseUrl: string, url: string, count: number | null, input: Record<string, unknown>): string {
  const headers: Record<string, string> = {};
  const reply = { header: (name: string, value: string) => (headers[name] = value) } as unknown as FastifyReply;
  setPageHeaders(baseUrl, { url, server } as unknown as FastifyRequest, reply, pageOf(input), count);
  return headers.link;
}

describe('Link headers', () => {
  it('carry each base URL, even for the same request URL and page', () => {
    const url = '/api/v4/projects?per_page=2&page=2';
    expect(linkFor('https://one.example', url, 10, { per_page: '2', page: '2' })).toBe(
      '<https://one.example/api/v4/projects?page=1&per_page=2>; rel="prev", <https://one.example/api/v4/projects?page=3&per_page=2>; rel="next", ' +
        '<https://one.example/api/v4/projects?page=1&per_page=2>; rel="first", <https://one.example/api/v4/projects?page=5&per_page=2>; rel="last"',
    );
    expect(linkFor('https://two.example', url, 10, { per_page: '2', page: '2' })).toContain('<https://two.example/api/v4/projects?page=1&per_page=2>; rel="first"');
  });

  it('follow the count: no rel="last" above the counting limit', () => {
    const url = '/api/v4/events?page=1';
    expect(linkFor('https://one.example', url, 3, { page: '1' })).toContain('rel="last"');
    expect(linkFor('https://one.example', url, null, { page: '1' })).not.toContain('rel="last"');
  });
});
