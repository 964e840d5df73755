// A TCP proxy on loopback between Kiln and its PostgreSQL, for tests of the database going away:
// `cut()` ends every connection and refuses new ones (a restart, a failover in progress), `restore()`
// accepts again on the same port (the server back, or another one behind the same name).
import { createServer, connect, type Server, type Socket } from 'node:net';

export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Listen on 127.0.0.1 (a free port the first time, the same one after a cut). */
  async listen(): Promise<number> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        // A reset on one side ends the other; the test looks at what Kiln does about it.
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as { port: number }).port;
    return this.port;
  }

  /** End every connection through the proxy (both ways) and refuse new ones. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async restore(): Promise<void> {
    await this.listen();
  }

  async close(): Promise<void> {
    await this.cut();
  }
}
