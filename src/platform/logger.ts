// JSON log lines with request ids and no secrets: tokens, passwords, keys and `access_token=` in URLs.
import pino, { type Logger } from 'pino';

const SECRET_QUERY = /([?&](?:access_token|private_token|bearer_token|token|code|client_secret|password|refresh_token|id_token_hint)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[REDACTED]');
}

export const redactPaths = [
  'req.headers.authorization',
  'req.headers["private-token"]',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.client_secret',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: redactPaths, censor: '[REDACTED]' } }, destination);
}

export const requestSerializers = {
  req(request: { method: string; url: string; id: string; ip?: string; headers?: Record<string, unknown> }) {
    return { id: request.id, method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
  },
};
