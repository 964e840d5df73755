// mergedParams: path over body over query, as Grape merges them; a raw body (a job log appended as
// bytes) is no parameters, so its bytes never become keys.
import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { mergedParams } from '../../src/platform/http/params.js';

const request = (body: unknown) => ({ query: { token: 'from-query', page: '2' }, body, params: { job_id: '7' } }) as unknown as FastifyRequest;

describe('mergedParams', () => {
  it('merges query, body and path, the path winning', () => {
    expect(mergedParams(request({ token: 'from-body', job_id: '9' }))).toEqual({ token: 'from-body', page: '2', job_id: '7' });
  });

  it('takes nothing from a raw body', () => {
    expect(mergedParams(request(Buffer.from('log bytes')))).toEqual({ token: 'from-query', page: '2', job_id: '7' });
  });
});
