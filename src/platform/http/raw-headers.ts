// Headers of content sent as it is stored (raw files, `.diff`, archives, uploads): never rendered as
// a page of Kiln (a sandbox with no scripts, no sniffing), named for a download.
import type { FastifyReply } from 'fastify';

function asciiName(name: string): string {
  return name.replace(/[^\x20-\x7e]|["\\]/g, '_');
}

export function setRawHeaders(reply: FastifyReply, fileName: string, contentType: string, disposition: 'inline' | 'attachment' = 'inline'): void {
  reply.header('content-type', contentType);
  reply.header('content-disposition', `${disposition}; filename="${asciiName(fileName)}"; filename*=UTF-8''${encodeURIComponent(fileName)}`);
  reply.header('content-security-policy', "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'");
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-frame-options', 'DENY');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('cache-control', 'private, no-cache');
}
