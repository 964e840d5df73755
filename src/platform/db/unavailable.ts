// Which errors mean "the database is not there right now" rather than "this statement is wrong":
// PostgreSQL restarting, failing over, or terminating the connection (pg_terminate_backend), the
// network between, or a pool that could not get a connection in time. Requests that meet one are
// answered 503 (error-handler.ts), the readiness probe says so, and the job worker waits
// (jobs/worker.ts); none of them is a bug to log as one.

// SQLSTATE classes and codes (PostgreSQL's Appendix A): 08 connection exception; 57P01
// admin_shutdown (pg_terminate_backend, a fast shutdown), 57P02 crash_shutdown, 57P03
// cannot_connect_now (starting up, shutting down), 57P05 idle_session_timeout; 53300
// too_many_connections.
const CODES = new Set(['57P01', '57P02', '57P03', '57P05', '53300']);
// Node's socket errors.
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);
// node-postgres says these in words only (pg/lib/client.js, pg-pool/index.js).
const MESSAGES = [
  'Connection terminated',
  'connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
  'Connection terminated due to connection timeout',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth += 1) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (code.startsWith('08') || CODES.has(code) || SOCKET_CODES.has(code))) return true;
    if (typeof message === 'string' && MESSAGES.some((words) => message.includes(words))) return true;
    current = cause;
  }
  return false;
}
