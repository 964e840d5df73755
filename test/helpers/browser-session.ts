// Drives the sign-in form through inject like a browser: keeps the session cookie and reads CSRF tokens.
import type { TestKiln } from './kiln.js';

export function csrfTokenOf(body: string): string {
  const match = /name="authenticity_token" value="([^"]+)"/.exec(body);
  if (!match) throw new Error('no authenticity_token in the page');
  return match[1];
}

export function sessionCookieOf(headers: Record<string, unknown>): string | undefined {
  const raw = headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [String(raw)] : [];
  const cookie = list.find((line) => line.startsWith('_kiln_session='));
  return cookie?.split(';')[0];
}

export class WebSession {
  cookie = '';
  constructor(private readonly kiln: TestKiln) {}

  async get(url: string) {
    const response = await this.kiln.app.inject({ method: 'GET', url, headers: this.cookie ? { cookie: this.cookie } : {} });
    this.cookie = sessionCookieOf(response.headers) ?? this.cookie;
    return response;
  }

  async post(url: string, form: Record<string, string>, options: { csrfFrom?: string } = {}) {
    const token = form.authenticity_token ?? csrfTokenOf((await this.get(options.csrfFrom ?? url)).body);
    const response = await this.kiln.app.inject({
      method: 'POST',
      url,
      headers: { cookie: this.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ authenticity_token: token, ...form }).toString(),
    });
    this.cookie = sessionCookieOf(response.headers) ?? this.cookie;
    return response;
  }

  /** A form posted as htmx posts it: the CSRF token in `X-CSRF-Token`, `HX-Request: true`. */
  async postHtmx(url: string, form: Record<string, string>, options: { csrfFrom: string }) {
    const token = csrfTokenOf((await this.get(options.csrfFrom)).body);
    return this.kiln.app.inject({
      method: 'POST',
      url,
      headers: { cookie: this.cookie, 'content-type': 'application/x-www-form-urlencoded', 'hx-request': 'true', 'x-csrf-token': token },
      payload: new URLSearchParams(form).toString(),
    });
  }

  async signIn(login: string, password: string) {
    const response = await this.post('/users/sign_in', { login, password }, { csrfFrom: '/users/sign_in' });
    if (response.statusCode !== 303) throw new Error(`sign-in failed: ${response.statusCode}`);
    return response;
  }
}
