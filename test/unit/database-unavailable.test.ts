// Which errors mean the database is away (answered 503, the worker pauses) and which are the
// statement's own (a bug, or a constraint the caller maps).
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/platform/db/unavailable.js';

describe('isDatabaseUnavailable', () => {
  it('knows a terminated, refused, reset or timed-out connection, and a server starting or stopping', () => {
    const away = [
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('wrapped', { cause: Object.assign(new Error('x'), { code: '57P01' }) }),
    ];
    expect(away.filter((error) => !isDatabaseUnavailable(error))).toEqual([]);
  });

  it('leaves statement errors alone: a unique violation, a syntax error, SQLite busy, anything else', () => {
    const own = [
      Object.assign(new Error('duplicate key'), { code: '23505' }),
      Object.assign(new Error('syntax error'), { code: '42601' }),
      Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
      new Error('something else'),
      null,
      'text',
    ];
    expect(own.filter((error) => isDatabaseUnavailable(error))).toEqual([]);
  });
});
