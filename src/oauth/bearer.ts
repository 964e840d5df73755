// Reading the access token of a request the way GitLab's Doorkeeper does (GitLab's OAuth documentation):
// `access_token` parameter first, then `Authorization: Bearer`, then `bearer_token`.
import type { FastifyRequest } from 'fastify';

export function bearerToken(request: FastifyRequest): string | undefined {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const body = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
  const fromParam = query.access_token ?? body.access_token;
  if (typeof fromParam === 'string' && fromParam !== '') return fromParam;
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (match) return match[1];
  const fromBearerParam = query.bearer_token ?? body.bearer_token;
  return typeof fromBearerParam === 'string' && fromBearerParam !== '' ? fromBearerParam : undefined;
}
