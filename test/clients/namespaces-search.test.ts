// python-gitlab 3.12 (Debian) and @gitbeaker/rest drive namespaces, search (projects, issues, blobs),
// Markdown and the application settings against a started `kiln serve`: on SQLite, and on a fresh
// PostgreSQL database as well when KILN_TEST_DATABASE_URL names a server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gitlab } from '@gitbeaker/rest';
import { onFreshPostgres } from './helpers/fresh-postgres.js';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { runPython } from './helpers/python.js';

const PYTHON = `
import json, os, gitlab
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
out = {}
out["namespaces"] = sorted(n.full_path for n in gl.namespaces.list(all=True))
out["namespaces_search"] = [n.full_path for n in gl.namespaces.list(search="acme")]
out["namespace_get"] = gl.namespaces.get("acme").kind
out["exists"] = gl.namespaces.exists("acme").attributes
out["search_projects"] = [p["path_with_namespace"] for p in gl.search("projects", "tool")]
out["search_issues"] = [i["title"] for i in gl.search(gitlab.const.SearchScope.ISSUES, "flaky")]
project = gl.projects.get("acme/tool")
out["project_blobs"] = [[b["path"], b["startline"], b["ref"]] for b in project.search(gitlab.const.SearchScope.BLOBS, "needle")]
group = gl.groups.get("acme")
out["group_blobs"] = [b["path"] for b in group.search("blobs", "needle")]
out["markdown"] = gl.markdown("See #1 by @root", gfm=True, project="acme/tool")
settings = gl.settings.get()
out["settings_before"] = [settings.signup_enabled, settings.max_attachment_size]
settings.default_group_visibility = "internal"
settings.restricted_visibility_levels = ["public"]
settings.save()
again = gl.settings.get()
out["settings_after"] = [again.default_group_visibility, again.restricted_visibility_levels]
try:
    gl.settings.update(new_data={"plantuml_enabled": True})
except gitlab.exceptions.GitlabUpdateError as err:
    out["settings_refused"] = [err.response_code, err.error_message]
print(json.dumps(out))
`;

function suite(label: string, env: () => Record<string, string> | undefined) {
  describe(label, () => {
    let kiln: KilnProcess;

    beforeAll(async () => {
      kiln = await startKilnProcess({ env: env() });
      const group = await apiCall(kiln, 'POST', '/groups', { name: 'acme', path: 'acme' });
      const project = await apiCall(kiln, 'POST', '/projects', { name: 'tool', path: 'tool', namespace_id: group.id });
      await apiCall(kiln, 'POST', `/projects/${project.id}/issues`, { title: 'Flaky build' });
      await apiCall(kiln, 'POST', `/projects/${project.id}/repository/commits`, {
        branch: 'main',
        commit_message: 'files',
        actions: [
          { action: 'create', file_path: 'lib/hay.rb', content: 'hay\nhay\nneedle here\nhay\n' },
          { action: 'create', file_path: 'README.md', content: 'no match\n' },
        ],
      });
    });
    afterAll(async () => {
      await kiln?.stop();
    });

    it('python-gitlab 3.12: gl.namespaces, gl.search, project.search and group.search, gl.markdown, gl.settings', async () => {
      const { stdout } = await runPython(PYTHON, { URL: kiln.url, TOKEN: kiln.rootToken });
      const out = JSON.parse(stdout);
      expect(out.namespaces).toEqual(['acme', 'root']);
      expect(out.namespaces_search).toEqual(['acme']);
      expect(out.namespace_get).toBe('group');
      expect(out.exists).toEqual({ exists: true, suggests: ['acme1'] });
      expect(out.search_projects).toEqual(['acme/tool']);
      expect(out.search_issues).toEqual(['Flaky build']);
      expect(out.project_blobs).toEqual([['lib/hay.rb', 1, 'main']]);
      expect(out.group_blobs).toEqual(['lib/hay.rb']);
      expect(out.markdown).toContain(`href="${kiln.url}/acme/tool/-/issues/1"`);
      expect(out.markdown).toContain(`href="${kiln.url}/root"`);
      expect(out.settings_before).toEqual([false, 100]);
      expect(out.settings_after).toEqual(['internal', ['public']]);
      expect(out.settings_refused).toEqual([400, { plantuml_enabled: ['is not supported by this server'] }]);
    });

    it('@gitbeaker/rest: Namespaces, Search, Markdown and ApplicationSettings', async () => {
      const api = new Gitlab({ host: kiln.url, token: kiln.rootToken });
      const namespaces = await api.Namespaces.all();
      expect(namespaces.map((namespace) => namespace.full_path).sort()).toEqual(['acme', 'root']);
      expect((await api.Namespaces.show('acme')).kind).toBe('group');
      expect(await api.Namespaces.exists('nobody-here')).toEqual({ exists: false, suggests: [] });
      const projects = (await api.Search.all('projects', 'tool')) as Array<{ path_with_namespace: string }>;
      expect(projects.map((project) => project.path_with_namespace)).toEqual(['acme/tool']);
      const blobs = (await api.Search.all('blobs', 'needle', { projectId: 'acme/tool' })) as Array<{ path: string; data: string }>;
      expect(blobs.map((blob) => blob.path)).toEqual(['lib/hay.rb']);
      expect(blobs[0].data).toContain('needle here');
      const groupBlobs = (await api.Search.all('blobs', 'needle', { groupId: 'acme' })) as Array<{ path: string }>;
      expect(groupBlobs.map((blob) => blob.path)).toEqual(['lib/hay.rb']);
      const rendered = await api.Markdown.render('**bold** <script>x</script>', { gfm: 'true' });
      expect(rendered.html).toBe('<p><strong>bold</strong> &lt;script&gt;x&lt;/script&gt;</p>\n');
      const before = await api.ApplicationSettings.show();
      expect(before.default_project_visibility).toBe('private');
      const after = await api.ApplicationSettings.edit({ defaultProjectVisibility: 'internal', outboundLocalRequestsWhitelist: ['10.0.0.1'] } as never);
      expect([after.default_project_visibility, after.outbound_local_requests_whitelist]).toEqual(['internal', ['10.0.0.1']]);
      expect((await api.ApplicationSettings.show()).default_project_visibility).toBe('internal');
    });
  });
}

suite('on SQLite', () => undefined);

onFreshPostgres('search', (databaseUrl) => {
  suite('python-gitlab and gitbeaker', () => ({ KILN_DATABASE_URL: databaseUrl() }));
});
