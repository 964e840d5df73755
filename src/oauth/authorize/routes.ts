// GET /oauth/authorize shows the consent page (or approves at once for trusted applications); the
// form POSTs back and answers 303 (RFC 9700 §4.12). Anonymous users sign in first and come back.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { html } from '../../platform/web/html.js';
import { csrfField, pageRoute, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../../platform/web/page.js';
import { SCOPE_DESCRIPTIONS } from '../scopes.js';
import { DESCRIPTIONS } from '../errors.js';
import { protectedPathHit } from '../../accounts/api.js';
import { approveAuthorization } from './approve.js';
import { redirectWith, validateAuthorizeRequest, type AuthorizeRequest } from './validate.js';
import { OOB_URI } from '../redirect-uri.js';

function errorPage(description: string): PageOutcome {
  return page({
    title: 'An error has occurred',
    status: 400,
    body: html`<p class="error" role="alert">${description}</p><p>Go back to the application that sent you here and try again.</p>`,
  });
}

function consentPage(context: PageContext, request: AuthorizeRequest): PageOutcome {
  const hidden = {
    client_id: request.application.uid,
    redirect_uri: request.redirectUri,
    response_type: request.responseType,
    scope: request.scopes.join(' '),
    state: request.state,
    code_challenge: request.codeChallenge ?? undefined,
    code_challenge_method: request.codeChallenge ? 'S256' : undefined,
    nonce: request.nonce ?? undefined,
  };
  const fields = Object.entries(hidden)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  return page({
    title: `Authorize ${request.application.name} to use your account?`,
    body: html`
      <p>An application called <strong>${request.application.name}</strong> is requesting access to your Kiln account
      (<strong>@${context.user.username}</strong>). ${request.application.confidential === 0 ? html`<span class="badge">public client</span>` : ''}</p>
      <p>This application will be able to:</p>
      <ul class="scopes">
        ${request.scopes.map((scope) => html`<li><strong>${scope}</strong>: ${SCOPE_DESCRIPTIONS[scope] ?? scope}</li>`)}
      </ul>
      <p class="muted">You will be sent back to <code>${request.redirectUri}</code>.</p>
      <form method="post" action="/oauth/authorize" class="inline" id="consent">
        ${csrfField(context)}
        ${fields}
        <button type="submit" name="decision" value="approve">Authorize</button>
        <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
      </form>`,
  });
}

/**
 * Send the browser on with the result. The out-of-band URI of native apps cannot be navigated to:
 * show the code on a page instead, as GitLab's /oauth/authorize/native does.
 */
function deliver(location: string, status: number): PageOutcome {
  if (location.startsWith(`${OOB_URI}?`)) {
    const code = new URLSearchParams(location.slice(OOB_URI.length + 1)).get('code');
    if (code) return page({ title: 'Authorization code', body: html`<p>Copy this code and switch to your application:</p><p><code id="authorization_code">${code}</code></p>` });
  }
  return redirect(location, null, status);
}

export function authorizeRoutes(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, {
    method: 'GET', url: '/oauth/authorize', ability: { instance: 'log_in' },
    handler: async (context) => {
      const validation = await validateAuthorizeRequest(deps, context.query);
      if (validation.kind === 'page') return errorPage(validation.description);
      if (validation.kind === 'redirect') return redirect(redirectWith(validation.destination, { error: validation.error, error_description: validation.description }), null, 302);
      // Trusted applications (an administrator's flag) skip consent (GitLab's OAuth documentation).
      if (validation.request.application.trusted === 1) return deliver(await approveAuthorization(deps, context.user.id, validation.request), 302);
      return consentPage(context, validation.request);
    },
  });

  pageRoute(app, deps, {
    method: 'POST', url: '/oauth/authorize', ability: { instance: 'log_in' },
    handler: async (context) => {
      const limited = await protectedPathHit(deps, 'oauth_authorize', context.request.ip);
      if (!limited.allowed) {
        context.reply.header('retry-after', String(limited.retryAfter));
        return page({ title: 'Too many requests', status: 429, body: html`<p class="error">Retry later.</p>` });
      }
      const validation = await validateAuthorizeRequest(deps, context.form);
      if (validation.kind === 'page') return errorPage(validation.description);
      if (validation.kind === 'redirect') return redirect(redirectWith(validation.destination, { error: validation.error, error_description: validation.description }));
      if (context.form.decision !== 'approve') {
        if (validation.request.redirectUri === OOB_URI) return errorPage(DESCRIPTIONS.access_denied);
        const destination = { redirectUri: validation.request.redirectUri, mode: validation.request.responseType === 'token' ? 'fragment' as const : 'query' as const, state: validation.request.state };
        return redirect(redirectWith(destination, { error: 'access_denied', error_description: DESCRIPTIONS.access_denied }));
      }
      return deliver(await approveAuthorization(deps, context.user.id, validation.request), 303);
    },
  });
}
