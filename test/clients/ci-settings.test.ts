// python-gitlab 3.12 (Debian) against a started `kiln serve`, as users run it: CI/CD variables of a
// project, a group and the instance, pipeline trigger tokens with trigger_pipeline, and pipeline
// schedules with their variables, take_ownership and play (issue 39).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { runPython } from './helpers/python.js';

let kiln: KilnProcess;
let project: { id: number; path_with_namespace: string };
let group: { id: number };

beforeAll(async () => {
  kiln = await startKilnProcess();
  group = await apiCall(kiln, 'POST', '/groups', { name: 'ci', path: 'ci' });
  project = await apiCall(kiln, 'POST', '/projects', { name: 'app', path: 'app', namespace_id: group.id, initialize_with_readme: true });
  await apiCall(kiln, 'POST', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: 'build:\n  script: echo $TARGET\n', commit_message: 'ci [skip ci]' });
});
afterAll(async () => kiln?.stop());

const PYTHON_VARIABLES = `
import json, os, gitlab
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
p = gl.projects.get(os.environ["PROJECT"], lazy=True)
g = gl.groups.get(os.environ["GROUP"], lazy=True)
out = {}
v = p.variables.create({"key": "DEPLOY_TOKEN", "value": "abcdefgh1234", "masked": True, "protected": True})
out["created"] = v.attributes
v.value = "changed12345"
v.save()
out["saved"] = p.variables.get("DEPLOY_TOKEN").value
out["listed"] = [x.key for x in p.variables.list()]
try:
    p.variables.create({"key": "SHORT", "value": "x", "masked": True})
except gitlab.exceptions.GitlabCreateError as err:
    out["unmaskable"] = [err.response_code, err.error_message]
p.variables.delete("DEPLOY_TOKEN")
try:
    p.variables.get("DEPLOY_TOKEN")
except gitlab.exceptions.GitlabGetError as err:
    out["after_delete"] = err.response_code
out["group"] = g.variables.create({"key": "GROUP_VAR", "value": "g", "variable_type": "file"}).attributes
out["instance"] = gl.variables.create({"key": "INSTANCE_VAR", "value": "i"}).attributes
out["instance_list"] = [x.key for x in gl.variables.list()]
print(json.dumps(out))
`;

const PYTHON_TRIGGERS = `
import json, os, gitlab
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
p = gl.projects.get(os.environ["PROJECT"])
out = {}
t = p.triggers.create({"description": "nightly"})
out["token"] = t.token
pipeline = p.trigger_pipeline("main", t.token, variables={"TARGET": "staging"})
out["pipeline"] = {"source": pipeline.source, "ref": pipeline.ref}
out["variables"] = [v.attributes for v in p.pipelines.get(pipeline.id).variables.list()]
out["listed"] = [x.description for x in p.triggers.list()]
p.triggers.delete(t.id)
out["after_delete"] = len(p.triggers.list())
print(json.dumps(out))
`;

const PYTHON_SCHEDULES = `
import json, os, time, gitlab
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
p = gl.projects.get(os.environ["PROJECT"])
out = {}
s = p.pipelineschedules.create({"description": "nightly", "ref": "main", "cron": "0 1 * * *", "cron_timezone": "Europe/Berlin"})
out["created"] = s.attributes
try:
    p.pipelineschedules.create({"description": "bad", "ref": "main", "cron": "0 25 * * *"})
except gitlab.exceptions.GitlabCreateError as err:
    out["invalid"] = [err.response_code, err.error_message]
s.description = "every night"
s.active = False
s.save()
s = p.pipelineschedules.get(s.id)
out["saved"] = [s.description, s.active, s.next_run_at]
out["listed"] = [x.description for x in p.pipelineschedules.list(scope="inactive")]
s.take_ownership()
out["owner"] = s.owner["username"]
v = s.variables.create({"key": "TARGET", "value": "scheduled"})
v.value = "from-schedule"
v.save()
s = p.pipelineschedules.get(s.id)
# python-gitlab puts a variables manager on the object; the answer's list is in attributes.
out["variables"] = s.attributes["variables"]
sid = s.id
# play() answers {"message": "201 Created"}, which python-gitlab takes as the object's attributes.
s.play()
for _ in range(100):
    s = p.pipelineschedules.get(sid)
    if s.last_pipeline:
        break
    time.sleep(0.2)
out["last_pipeline"] = s.last_pipeline and {"source": s.last_pipeline["source"], "ref": s.last_pipeline["ref"]}
out["pipeline_variables"] = [x.attributes["value"] for x in p.pipelines.get(s.last_pipeline["id"]).variables.list()] if s.last_pipeline else None
s.variables.delete("TARGET")
out["after_variable_delete"] = p.pipelineschedules.get(s.id).attributes["variables"]
s.delete()
out["after_delete"] = len(p.pipelineschedules.list())
print(json.dumps(out))
`;

describe('python-gitlab 3.12', () => {
  it('drives project, group and instance variables', async () => {
    const { stdout } = await runPython(PYTHON_VARIABLES, { URL: kiln.url, TOKEN: kiln.rootToken, PROJECT: project.path_with_namespace, GROUP: String(group.id) });
    const out = JSON.parse(stdout);
    expect(out.created).toMatchObject({ key: 'DEPLOY_TOKEN', value: 'abcdefgh1234', masked: true, protected: true, variable_type: 'env_var', environment_scope: '*' });
    expect(out.saved).toBe('changed12345');
    expect(out.listed).toEqual(['DEPLOY_TOKEN']);
    expect(out.unmaskable).toEqual([400, { value: ['is invalid'] }]);
    expect(out.after_delete).toBe(404);
    expect(out.group).toMatchObject({ key: 'GROUP_VAR', variable_type: 'file' });
    expect(out.instance).toMatchObject({ key: 'INSTANCE_VAR', value: 'i' });
    expect(out.instance_list).toEqual(['INSTANCE_VAR']);
  });

  it('creates a trigger token and runs a pipeline with trigger_pipeline', async () => {
    const { stdout } = await runPython(PYTHON_TRIGGERS, { URL: kiln.url, TOKEN: kiln.rootToken, PROJECT: project.path_with_namespace });
    const out = JSON.parse(stdout);
    expect(out.token).toMatch(/^glptt-/);
    expect(out.pipeline).toEqual({ source: 'trigger', ref: 'main' });
    // python-gitlab adds its parents' ids (project_id, pipeline_id) to a listed object's attributes.
    expect(out.variables).toEqual([expect.objectContaining({ variable_type: 'env_var', key: 'TARGET', value: 'staging' })]);
    expect(out.listed).toEqual(['nightly']);
    expect(out.after_delete).toBe(0);
  });

  it('creates, edits, takes over and plays a pipeline schedule with its variables', async () => {
    const { stdout } = await runPython(PYTHON_SCHEDULES, { URL: kiln.url, TOKEN: kiln.rootToken, PROJECT: project.path_with_namespace });
    const out = JSON.parse(stdout);
    expect(out.created).toMatchObject({ description: 'nightly', ref: 'main', cron: '0 1 * * *', cron_timezone: 'Europe/Berlin', active: true, owner: { username: 'root' }, last_pipeline: null });
    expect(out.created.next_run_at).toMatch(/T00:00:00\.000Z$/);
    expect(out.invalid).toEqual([400, { cron: [' is invalid syntax'] }]);
    expect(out.saved).toEqual(['every night', false, null]);
    expect(out.listed).toEqual(['every night']);
    expect(out.owner).toBe('root');
    expect(out.variables).toEqual([{ variable_type: 'env_var', key: 'TARGET', value: 'from-schedule' }]);
    expect(out.last_pipeline).toEqual({ source: 'schedule', ref: 'main' });
    expect(out.pipeline_variables).toEqual(['from-schedule']);
    expect(out.after_variable_delete).toEqual([]);
    expect(out.after_delete).toBe(0);
  });
});
