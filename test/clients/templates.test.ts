// python-gitlab 3.12 against a started Kiln (issue 38): the gitignore, Dockerfile and .gitlab-ci.yml
// templates through gl.gitignores, gl.dockerfiles and gl.gitlabciymls (list and get). The templates
// touch no database: SQLite only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKilnProcess, type KilnProcess } from './helpers/server.js';
import { runPython } from './helpers/python.js';

describe('templates through python-gitlab', () => {
  let kiln: KilnProcess;
  beforeAll(async () => {
    kiln = await startKilnProcess({});
  });
  afterAll(() => kiln?.stop());

  it('lists and reads gitignores, dockerfiles and gitlabciymls', async () => {
    const { stdout } = await runPython(`
import gitlab, json
gl = gitlab.Gitlab("${kiln.url}", private_token="${kiln.rootToken}")
out = {}
out["gitignores"] = [len(gl.gitignores.list(get_all=True)), "node_modules" in gl.gitignores.get("Node").content]
out["dockerfiles"] = [t.key for t in gl.dockerfiles.list()] + [gl.dockerfiles.get("Python").content.count("FROM python")]
out["ymls"] = [t.name for t in gl.gitlabciymls.list(get_all=True)] + ["stages:" in gl.gitlabciymls.get("Nodejs").content]
print(json.dumps(out))
`);
    const out = JSON.parse(stdout);
    expect(out.gitignores[0]).toBeGreaterThan(150);
    expect(out.gitignores[1]).toBe(true);
    expect(out.dockerfiles).toEqual(['Go', 'Node', 'Python', 'Ruby', 'Static-Site', 1]);
    expect(out.ymls).toHaveLength(23);
    expect(out.ymls.slice(-4)).toEqual(['Scala', 'Swift', 'Terraform', true]);
  });
});
