// The client and browser suites' `startKilnProcess` (helpers/server.ts): a server of another file that
// took the port first is not mistaken for this file's, whose start then fails saying the port is in
// use (with a port of its own choosing, it tries other ports).
import { expect, it } from 'vitest';
import { createServer } from 'node:http';
import { startKilnProcess } from './helpers/server.js';

it('a foreign server answering readiness on the port is not taken for the started Kiln', { timeout: 60_000 }, async () => {
  const foreign = createServer((request, response) => {
    response.statusCode = request.url === '/-/readiness' ? 200 : 401;
    response.end('{}');
  });
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', () => resolve()));
  try {
    const { port } = foreign.address() as { port: number };
    await expect(startKilnProcess({ port })).rejects.toThrow(`KILN_PORT ${port} is already in use`);
  } finally {
    foreign.close();
  }
});
