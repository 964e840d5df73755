// What GitLab keeps of the request that created a snippet or an issue (its user_agent_details, for
// spam review) and shows administrators at `…/user_agent_detail`: the User-Agent and the address.
// Kept on the created record itself, in `user_agent` and `ip_address` columns.
import type { FastifyRequest } from 'fastify';

/** Longer User-Agent headers are cut here (GitLab's column is a string of at most 1024 characters). */
const USER_AGENT_MAX = 1024;

export interface RequestDetail {
  userAgent?: string;
  ipAddress?: string;
}

export function requestDetail(request: FastifyRequest): RequestDetail {
  const agent = request.headers['user-agent'];
  return { userAgent: typeof agent === 'string' ? agent : undefined, ipAddress: request.ip };
}

/** The columns a created record keeps of its request. */
export function requestDetailColumns(detail: RequestDetail): { user_agent: string | null; ip_address: string | null } {
  return { user_agent: detail.userAgent?.slice(0, USER_AGENT_MAX) ?? null, ip_address: detail.ipAddress ?? null };
}

/** GitLab's UserAgentDetail entity (administrators only). */
export function userAgentDetail(row: { user_agent: string | null; ip_address: string | null }) {
  return { user_agent: row.user_agent ?? '', ip_address: row.ip_address ?? '', akismet_submitted: false };
}
