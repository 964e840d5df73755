// A loopback HTTP receiver for webhook tests: records each delivery (path, headers, JSON body) and
// answers with the status `statusOf` gives its path (200 by default).
import { createServer, type IncomingHttpHeaders } from 'node:http';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface HookReceiver {
  url: string;
  close(): Promise<void>;
}

export async function startHookReceiver(record: (request: Received) => void, statusOf: (path: string) => number = () => 200): Promise<HookReceiver> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '';
      record({ path, headers: req.headers, body: text ? JSON.parse(text) : null });
      const status = statusOf(path);
      res.writeHead(status, { 'content-type': 'text/plain', 'x-receiver': 'test' });
      res.end(status < 300 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
