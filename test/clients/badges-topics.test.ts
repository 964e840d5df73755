// python-gitlab 3.12 against a started Kiln (issue 38): project and group badges (create, list with
// the group's, render, save, delete), topics (create, list, save, merge, delete), custom attributes
// of users, groups and projects, label and milestone promotion, and license templates, through
// python-gitlab's own objects. On SQLite, and on a fresh PostgreSQL database as well when
// KILN_TEST_DATABASE_URL names a server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onFreshPostgres } from './helpers/fresh-postgres.js';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { runPython } from './helpers/python.js';

function suite(environment: () => Record<string, string> | undefined): void {
  let kiln: KilnProcess;

  beforeAll(async () => {
    kiln = await startKilnProcess({ env: environment() });
    await apiCall(kiln, 'POST', '/groups', { name: 'team', path: 'team' });
  });
  afterAll(() => kiln?.stop());

  it('drives badges, topics, custom attributes, promotion and licenses', async () => {
    const { stdout } = await runPython(`
import gitlab, json
gl = gitlab.Gitlab("${kiln.url}", private_token="${kiln.rootToken}")
group = gl.groups.get("team")
p = gl.projects.create({"name": "app", "namespace_id": group.id, "topics": ["python", "cli"]})
out = {}
gb = group.badges.create({"link_url": "https://g.example/%{project_path}", "image_url": "https://g.example/b.svg", "name": "G"})
b = p.badges.create({"link_url": "https://x.example/%{project_id}", "image_url": "https://x.example/%{default_branch}.svg", "name": "P"})
out["badges"] = [[x.name, x.kind, x.rendered_link_url] for x in p.badges.list()]
out["render"] = p.badges.render("https://r.example/%{project_path}", "https://r.example/i.svg")["rendered_link_url"]
b.name = "Renamed"
b.save()
out["saved"] = p.badges.get(b.id).name
b.delete()
out["after_delete"] = [x.kind for x in p.badges.list()]
out["topics"] = sorted(t.name for t in gl.topics.list())
python = [t for t in gl.topics.list() if t.name == "python"][0]
python.title = "Python"
python.save()
t = gl.topics.create({"name": "py", "title": "Py"})
out["topic_get"] = [gl.topics.get(python.id).title, t.total_projects_count]
gl.topics.merge(python.id, t.id)
out["merged"] = gl.projects.get(p.id).topics
t.delete()
out["topics_after"] = sorted(x.name for x in gl.topics.list())
user = gl.users.get(1)
user.customattributes.set("location", "Antarctica")
p.customattributes.set("tier", "gold")
group.customattributes.set("cost", "42")
out["attributes"] = [user.customattributes.get("location").value, [a.key for a in p.customattributes.list()], group.customattributes.get("cost").value]
p.customattributes.delete("tier")
out["attributes_after"] = len(p.customattributes.list())
label = p.labels.create({"name": "bug", "color": "#ff0000"})
label.promote()
out["group_labels"] = [l.name for l in group.labels.list()]
milestone = p.milestones.create({"title": "v1"})
milestone.promote()
out["group_milestones"] = [m.title for m in group.milestones.list()]
out["licenses"] = [gl.licenses.get("mit", project="App", fullname="Ada").content.count("Ada") > 0, len(gl.licenses.list(popular=True))]
print(json.dumps(out))
`);
    const out = JSON.parse(stdout);
    expect(out.badges).toEqual([['G', 'group', 'https://g.example/team/app'], ['P', 'project', expect.stringMatching(/^https:\/\/x\.example\/\d+$/)]]);
    expect(out.render).toBe('https://r.example/team/app');
    expect(out.saved).toBe('Renamed');
    expect(out.after_delete).toEqual(['group']);
    expect(out.topics).toEqual(['cli', 'python']);
    expect(out.topic_get).toEqual(['Python', 0]);
    expect(out.merged).toEqual(['py', 'cli']);
    expect(out.topics_after).toEqual(['cli']);
    expect(out.attributes).toEqual(['Antarctica', ['tier'], '42']);
    expect(out.attributes_after).toBe(0);
    expect(out.group_labels).toEqual(['bug']);
    expect(out.group_milestones).toEqual(['v1']);
    expect(out.licenses).toEqual([true, 3]);
  });
}

describe('on SQLite', () => suite(() => undefined));

onFreshPostgres('badges-topics', (databaseUrl) => {
  suite(() => ({ KILN_DATABASE_URL: databaseUrl() }));
});
