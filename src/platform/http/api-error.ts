// An HTTP error with GitLab's exact body. Routes throw these for protocol-level failures
// (authentication, scopes); actions throw the domain errors of platform/errors.ts instead.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.message === 'string' ? body.message : String(body.error ?? status));
  }
}

export const unauthorized = () => new ApiError(401, { message: '401 Unauthorized' });

export const forbidden = (reason?: string) => new ApiError(403, { message: reason ? `403 Forbidden - ${reason}` : '403 Forbidden' });

/** RFC 6750 §3.1 error for expired or revoked tokens, in GitLab's (rack-oauth2's) shape. */
export function invalidToken(description: string): ApiError {
  const header = `Bearer realm="Protected by OAuth 2.0", error="invalid_token", error_description="${description}"`;
  return new ApiError(401, { error: 'invalid_token', error_description: description }, { 'www-authenticate': header });
}

/** 403 for a token without an allowed scope; docs/decisions.md adds the RFC 6750 header GitLab omits. */
export function insufficientScope(allowed: string[]): ApiError {
  const description = 'The request requires higher privileges than provided by the access token.';
  return new ApiError(
    403,
    { error: 'insufficient_scope', error_description: description, scope: allowed.join(' ') },
    { 'www-authenticate': `Bearer realm="Protected by OAuth 2.0", error="insufficient_scope", error_description="${description}", scope="${allowed.join(' ')}"` },
  );
}
