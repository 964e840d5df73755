// POST /markdown (GitLab's Markdown API): rendering, GitLab references resolved for the caller, and
// output that stays inert whatever the input (no script, no javascript:/data:/vbscript: targets, no
// raw HTML, no event handler attributes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { isSafeLink, renderMarkdown } from '../../src/markdown/render-markdown.js';

let kiln: TestKiln;
let owner: TestUser;
let guest: TestUser;
let stranger: TestUser;
let project: any;
let secretProject: any;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('md-owner');
  guest = await kiln.createUser('md-guest');
  stranger = await kiln.createUser('md-stranger');
  const group = await kiln.createGroup(owner, 'md-group', { visibility: 'public' });
  project = await kiln.createProject(owner, 'docs', { namespace_id: group.id, visibility: 'public' });
  secretProject = await kiln.createProject(owner, 'hidden', { namespace_id: group.id, visibility: 'private' });
  await kiln.addMember(owner, 'projects', project.id, guest, ACCESS.guest);
  await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'First issue' } });
  await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'Secret plan', confidential: true } });
});
afterAll(() => kiln.close());

async function render(body: Record<string, unknown>, token?: string) {
  return kiln.api('POST', '/markdown', { token, body });
}

describe('POST /api/v4/markdown', () => {
  describe('as a signed-in user', () => {
    it('returns 201 with the HTML of the text', async () => {
      const { status, body } = await render({ text: '# Title\n\nSome *emphasis* and `code`.' }, owner.token);
      expect(status).toBe(201);
      expect(body).toEqual({ html: '<h1>Title</h1>\n<p>Some <em>emphasis</em> and <code>code</code>.</p>\n' });
    });

    it('links #12 to an issue the caller can read and @username to the user, with gfm and project', async () => {
      const { body } = await render({ text: 'See #1, thanks @md-owner.', gfm: true, project: 'md-group/docs' }, guest.token);
      expect(body.html).toContain(`<a href="http://kiln.test/md-group/docs/-/issues/1" title="First issue" data-reference-type="issue" data-project="${project.id}"`);
      expect(body.html).toContain('>#1</a>');
      expect(body.html).toContain('<a href="http://kiln.test/md-owner" title="User md-owner" data-reference-type="user"');
      expect(body.html).toContain('>@md-owner</a>.');
    });

    it('never links or names a confidential issue the caller cannot read', async () => {
      const asGuest = await render({ text: 'About #2', gfm: true, project: 'md-group/docs' }, guest.token);
      expect(asGuest.body.html).toBe('<p>About #2</p>\n');
      const asOwner = await render({ text: 'About #2', gfm: true, project: 'md-group/docs' }, owner.token);
      expect(asOwner.body.html).toContain('title="Secret plan"');
    });

    it('links a confidential issue for its assignee, as the issue policy lets assignees read it', async () => {
      // Written directly: the issues API assigns only users who may read the issue already.
      const secret = await kiln.deps.db.selectFrom('issues').select('id').where('project_id', '=', project.id).where('iid', '=', 2).executeTakeFirstOrThrow();
      await kiln.deps.db.insertInto('issue_assignees').values({ issue_id: secret.id, user_id: guest.id }).execute();
      const { body } = await render({ text: 'About #2', gfm: true, project: 'md-group/docs' }, guest.token);
      expect(body.html).toContain('title="Secret plan"');
      await kiln.deps.db.deleteFrom('issue_assignees').where('issue_id', '=', secret.id).execute();
    });

    it('leaves references that name nothing, references in code, and references without gfm as text', async () => {
      const { body } = await render({ text: 'Issue #99 by @nobody, `#1` and\n\n    @md-owner #1', gfm: true, project: 'md-group/docs' }, owner.token);
      expect(body.html).not.toContain('<a');
      const plain = await render({ text: '#1 @md-owner', project: 'md-group/docs' }, owner.token);
      expect(plain.body.html).toBe('<p>#1 @md-owner</p>\n');
    });

    it('does not link #1 without a project, but still links users', async () => {
      const { body } = await render({ text: '#1 @md-owner', gfm: true }, owner.token);
      expect(body.html).toContain('<p>#1 <a href="http://kiln.test/md-owner"');
      expect(body.html).not.toContain('issues/1');
    });

    it('answers 404 for a project the caller cannot read, as for a missing one', async () => {
      for (const path of ['md-group/hidden', 'md-group/missing', String(project.id)]) {
        const { status, body } = await render({ text: 'x', gfm: true, project: path }, stranger.token);
        expect(status, path).toBe(404);
        expect(body).toEqual({ message: '404 Project Not Found' });
      }
      expect(secretProject.id).toBeGreaterThan(0);
    });

    it('requires text (400 in Grape words)', async () => {
      const { status, body } = await render({ gfm: true }, owner.token);
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'text is missing' });
    });
  });

  describe('anonymously', () => {
    it('renders, as GitLab 14 does for anonymous callers, and reads public projects only', async () => {
      expect((await render({ text: '#1', gfm: true, project: 'md-group/docs' })).body.html).toContain('issues/1');
      expect((await render({ text: '#1', gfm: true, project: 'md-group/hidden' })).status).toBe(404);
    });
  });

  describe('with hostile input', () => {
    const HOSTILE: Array<[string, string]> = [
      ['a script element', '<script>alert(1)</script>'],
      ['an image with onerror', '<img src=x onerror=alert(1)>'],
      ['raw HTML with an event handler', '<a href="https://example.com" onclick="alert(1)">x</a><div onmouseover="alert(1)">y</div>'],
      ['an iframe', '<iframe src="https://evil.example"></iframe>'],
      ['a javascript: link', '[click](javascript:alert(1))'],
      ['a javascript: link with an entity', '[click](javascript&#58;alert(1))'],
      ['a javascript: link with a tab in the scheme', '[click](java\tscript:alert(1))'],
      ['a JavaScript: link in capitals', '[click](JaVaScRiPt:alert(1))'],
      ['a vbscript: link', '[click](vbscript:msgbox(1))'],
      ['a data: link', '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
      ['a data: image', '![img](data:image/png;base64,iVBORw0KGgo=)'],
      ['a javascript: image', '![img](javascript:alert(1))'],
      ['a javascript: autolink', '<javascript:alert(1)>'],
      ['a javascript: reference link', '[x][1]\n\n[1]: javascript:alert(1)'],
      ['a link title with quotes', '[x](https://example.com "a\\" onmouseover=\\"alert(1)")'],
      ['an HTML comment', '<!-- <script>alert(1)</script> -->'],
    ];
    for (const [what, text] of HOSTILE) {
      it(`keeps ${what} inert`, async () => {
        for (const gfm of [false, true]) {
          const { status, body } = await render({ text, gfm, project: 'md-group/docs' }, owner.token);
          expect(status).toBe(201);
          const html: string = body.html;
          expect(html).not.toMatch(/<(script|iframe|img[^>]*onerror|div)\b/i);
          // Attribute names of real tags (escaped input is text: `&lt;img …`), quoted values dropped.
          const attributes = [...html.matchAll(/<[a-z][^>]*>/gi)].map((tag) => tag[0].replace(/="[^"]*"/g, ''));
          for (const tag of attributes) expect(tag).not.toMatch(/\son\w+/i);
          expect(html).not.toMatch(/(href|src)="\s*(javascript|vbscript|data):/i);
          expect(html).not.toMatch(/<a[^>]*onclick/i);
        }
      });
    }

    it('gives links to other sites rel="nofollow noreferrer noopener" and leaves its own alone', async () => {
      const { body } = await render({ text: '[out](https://example.com) [in](http://kiln.test/x)', gfm: true }, owner.token);
      expect(body.html).toContain('<a href="https://example.com" rel="nofollow noreferrer noopener">out</a>');
      expect(body.html).toContain('<a href="http://kiln.test/x">in</a>');
    });
  });
});

describe('isSafeLink (the link check the renderer exports for pages)', () => {
  const CASES: Array<[string, boolean]> = [
    ['https://example.com/a', true],
    ['http://example.com', true],
    ['mailto:someone@example.com', true],
    ['/relative/path', true],
    ['#anchor', true],
    ['docs/file.md', true],
    ['javascript:alert(1)', false],
    [' javascript:alert(1)', false],
    ['java\nscript:alert(1)', false],
    ['vbscript:x', false],
    ['data:text/html,x', false],
    ['file:///etc/passwd', false],
    ['//evil.example/x', false],
  ];
  for (const [url, safe] of CASES) {
    it(`${JSON.stringify(url)} is ${safe ? 'kept' : 'refused'}`, () => expect(isSafeLink(url)).toBe(safe));
  }

  it('renders without references when none are given', () => {
    expect(renderMarkdown('#1 @x', { gfm: true })).toBe('<p>#1 @x</p>\n');
  });
});
