// python-gitlab 3.12 (Debian) and @gitbeaker/rest against a started `kiln serve`, as users run them
// (docs/clients.md and §2): environments, deployments and error tracking settings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gitlab } from '@gitbeaker/rest';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { runPython } from './helpers/python.js';

let kiln: KilnProcess;
let project: { id: number; path_with_namespace: string };

const API_URL = 'https://sentry.example.com/api/0/projects/acme/shop/';

beforeAll(async () => {
  kiln = await startKilnProcess();
  const group = await apiCall(kiln, 'POST', '/groups', { name: 'clients', path: 'clients' });
  project = await apiCall(kiln, 'POST', '/projects', { name: 'shop', path: 'shop', namespace_id: group.id });
  await apiCall(kiln, 'PUT', `/projects/${project.id}/error_tracking/settings`, { active: true, api_url: API_URL, token: 'tracker-token' });
});
afterAll(async () => kiln?.stop());

const PYTHON_ENVIRONMENTS = `
import json, os, gitlab
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
p = gl.projects.get(os.environ["PROJECT"], lazy=True)
out = {}
e = p.environments.create({"name": "staging", "external_url": "https://s.example.com"})
out["created"] = e.attributes
for i in range(25):
    p.environments.create({"name": "review/app-%d" % i})
out["search"] = [x.name for x in p.environments.list(search="STA")]
out["by_name"] = [x.name for x in p.environments.list(name="staging")]
out["all"] = len(p.environments.list(get_all=True))
out["first_page"] = len(p.environments.list())
p.deployments.create({"environment": "staging", "sha": "a" * 40, "ref": "main", "tag": False, "status": "success"})
got = p.environments.get(e.id)
out["last_deployment"] = got.last_deployment
got.external_url = "https://new.example.com"
got.save()
out["saved"] = p.environments.get(e.id).external_url
out["stopped"] = p.environments.get(e.id, lazy=True).stop()
out["stopped_list"] = [x.name for x in p.environments.list(states="stopped")]
p.environments.delete(e.id)
try:
    p.environments.get(e.id)
except gitlab.exceptions.GitlabGetError as err:
    out["get_after_delete"] = err.response_code
try:
    p.environments.get(999999, lazy=True).stop()
except gitlab.exceptions.GitlabStopError as err:
    out["stop_unknown"] = err.response_code
try:
    p.environments.create({"name": "/bad"})
except gitlab.exceptions.GitlabCreateError as err:
    out["create_bad"] = [err.response_code, err.error_message]
print(json.dumps(out))
`;

const PYTHON_ERROR_TRACKING = `
import json, os, gitlab
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
path = "/projects/%s/error_tracking/settings" % os.environ["PROJECT_ID"]
out = {"get": gl.http_get(path)}
out["patch"] = gl.http_request("patch", path, post_data={"active": False}).json()
out["after"] = gl.http_get(path)
try:
    gl.http_request("patch", path, post_data={})
except gitlab.exceptions.GitlabHttpError as err:
    out["missing"] = [err.response_code, err.error_message]
print(json.dumps(out))
`;

describe('python-gitlab 3.12', () => {
  it('drives project.environments through list, create, get, save, stop and delete', async () => {
    const { stdout } = await runPython(PYTHON_ENVIRONMENTS, { URL: kiln.url, TOKEN: kiln.rootToken, PROJECT: project.path_with_namespace });
    const out = JSON.parse(stdout);
    expect(out.created).toMatchObject({ name: 'staging', slug: 'staging', external_url: 'https://s.example.com', state: 'available' });
    expect(out.search).toEqual(['staging']);
    expect(out.by_name).toEqual(['staging']);
    expect(out.all).toBe(26);
    expect(out.first_page).toBe(20);
    expect(out.last_deployment).toMatchObject({ iid: 1, ref: 'main', sha: 'a'.repeat(40), status: 'success', deployable: null, user: { username: 'root' } });
    expect(out.saved).toBe('https://new.example.com');
    expect(out.stopped).toMatchObject({ name: 'staging', state: 'stopped' });
    expect(out.stopped_list).toEqual(['staging']);
    expect(out.get_after_delete).toBe(404);
    expect(out.stop_unknown).toBe(404);
    expect(out.create_bad[0]).toBe(400);
    expect(out.create_bad[1]).toEqual({ name: [expect.stringContaining('cannot start or end with')] });
  });

  it('reads and toggles error tracking settings with http_get and http_request("patch")', async () => {
    const { stdout } = await runPython(PYTHON_ERROR_TRACKING, { URL: kiln.url, TOKEN: kiln.rootToken, PROJECT_ID: String(project.id) });
    const out = JSON.parse(stdout);
    expect(out.get).toEqual({
      active: true, project_name: 'Shop', tracker_external_url: 'https://sentry.example.com/acme/shop/', sentry_external_url: 'https://sentry.example.com/acme/shop/', api_url: API_URL, integrated: false,
    });
    expect(out.patch.active).toBe(false);
    expect(out.after.active).toBe(false);
    expect(out.missing).toEqual([400, 'active is missing']);
  });
});

describe('@gitbeaker/rest', () => {
  it('drives Environments: create, all (every page), show, edit, stop, remove', async () => {
    const api = new Gitlab({ host: kiln.url, token: kiln.rootToken });
    const created = await api.Environments.create(project.id, 'production', { externalUrl: 'https://prod.example.com' });
    expect(created).toMatchObject({ name: 'production', slug: 'production', state: 'available', external_url: 'https://prod.example.com' });
    const all = await api.Environments.all(project.path_with_namespace, { perPage: 5 });
    expect(all.length).toBeGreaterThan(20);
    expect(all.map((e) => e.name)).toContain('production');
    const searched = await api.Environments.all(project.id, { search: 'prod' });
    expect(searched.map((e) => e.name)).toEqual(['production']);
    expect(await api.Environments.show(project.id, created.id)).toMatchObject({ id: created.id, last_deployment: null });
    const edited = await api.Environments.edit(project.id, created.id, { externalUrl: 'https://edited.example.com' });
    expect(edited.external_url).toBe('https://edited.example.com');
    await expect(api.Environments.remove(project.id, created.id)).rejects.toMatchObject({ cause: { response: { status: 403 } } });
    expect((await api.Environments.stop(project.id, created.id)).state).toBe('stopped');
    expect(await api.Environments.remove(project.id, created.id)).toBeNull();
    await expect(api.Environments.show(project.id, created.id)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
  });

  it('drives ErrorTrackingSettings: show and edit with ?active= in the query', async () => {
    const api = new Gitlab({ host: kiln.url, token: kiln.rootToken });
    const edited = await api.ErrorTrackingSettings.edit(project.id, true);
    expect(edited).toMatchObject({ active: true, api_url: API_URL });
    const off = await api.ErrorTrackingSettings.edit(project.id, false);
    expect(off.active).toBe(false);
    expect(await api.ErrorTrackingSettings.show(project.id)).toMatchObject({ active: false, sentry_external_url: 'https://sentry.example.com/acme/shop/' });
  });
});
