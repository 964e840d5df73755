// The "browser" step of the code flow done with fetch: sign in with the session cookie and CSRF token,
// open the authorize URL, approve the consent form, and read the Location the browser would follow.
export interface CookieJar {
  cookie: string;
}

function keepCookie(jar: CookieJar, response: Response): void {
  const set = response.headers.getSetCookie().find((line) => line.startsWith('_kiln_session='));
  if (set) jar.cookie = set.split(';')[0];
}

function csrf(body: string): string {
  const match = /name="authenticity_token" value="([^"]+)"/.exec(body);
  if (!match) throw new Error(`no CSRF token in: ${body.slice(0, 200)}`);
  return match[1];
}

export async function signIn(base: string, login: string, password: string): Promise<CookieJar> {
  const jar: CookieJar = { cookie: '' };
  const form = await fetch(`${base}/users/sign_in`, { redirect: 'manual' });
  keepCookie(jar, form);
  const response = await fetch(`${base}/users/sign_in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: jar.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ authenticity_token: csrf(await form.text()), login, password }),
  });
  if (response.status !== 303) throw new Error(`sign-in answered ${response.status}`);
  keepCookie(jar, response);
  return jar;
}

function unescape(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** Open the authorize URL and press Authorize; returns the redirect URI with the result. */
export async function consent(jar: CookieJar, authorizeUrl: string): Promise<URL> {
  const page = await fetch(authorizeUrl, { redirect: 'manual', headers: { cookie: jar.cookie } });
  if (page.status !== 200) throw new Error(`authorize answered ${page.status} ${page.headers.get('location') ?? ''}`);
  const body = await page.text();
  const form = new URLSearchParams({ decision: 'approve' });
  for (const match of body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form.set(match[1], unescape(match[2]));
  const base = new URL(authorizeUrl).origin;
  const response = await fetch(`${base}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: jar.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  if (response.status !== 303) throw new Error(`consent answered ${response.status}`);
  return new URL(response.headers.get('location')!);
}
