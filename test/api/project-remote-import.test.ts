// POST /api/v4/projects/remote-import (issue 38): GitLab's checks of the request, then a 400 saying the
// import of export archives is not supported; never 405, never a project.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let alice: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
});
afterAll(() => kiln.close());

const remoteImport = (body: Record<string, unknown>, token = alice.token) => kiln.api('POST', '/projects/remote-import', { token, body });

describe('POST /api/v4/projects/remote-import', () => {
  describe('as a user', () => {
    it('answers 400 naming a missing url or path', async () => {
      expect(await remoteImport({ path: 'imported' })).toMatchObject({ status: 400, body: { error: 'url is missing' } });
      expect(await remoteImport({ url: 'https://example.com/export.tar.gz' })).toMatchObject({ status: 400, body: { error: 'path is missing' } });
    });

    it("answers 400 File url is blocked for a scheme other than https (python-gitlab's test_project_remote_import)", async () => {
      const { status, body } = await remoteImport({ url: 'ftp://whatever.com/url', path: 'remote-project', name: 'remote-project', namespace: 'root' });
      expect([status, body]).toEqual([400, { message: 'File url is blocked: Only allowed schemes are https' }]);
    });

    it('answers 400 File url is blocked for a local address', async () => {
      const { status, body } = await remoteImport({ url: 'https://127.0.0.1/export.tar.gz', path: 'local' });
      expect([status, body.message]).toEqual([400, 'File url is blocked: Requests to localhost are not allowed']);
    });

    it('answers 400 not supported for an acceptable request, and makes no project', async () => {
      const { status, body } = await remoteImport({ url: 'https://example.com/export.tar.gz', path: 'would-be' });
      expect([status, body.message]).toEqual([400, 'Importing a project from a remote file (url) is not supported by this server']);
      expect((await kiln.api('GET', '/projects/alice%2Fwould-be', { token: alice.token })).status).toBe(404);
    });
  });

  describe('anonymously', () => {
    it('answers 401', async () => {
      expect((await kiln.request('POST', '/api/v4/projects/remote-import', { body: { url: 'https://example.com/a.tar.gz', path: 'x' } })).statusCode).toBe(401);
    });
  });
});
