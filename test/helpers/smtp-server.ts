// A real SMTP server for tests: Debian's python3-aiosmtpd on a loopback port, started by the suite.
// Each message it accepts is parsed by Python's email package and handed over as one JSON line, so
// tests assert on what a mail client would see (headers, the text and HTML parts).
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import type { TestKiln } from './kiln.js';

/**
 * Whether the suite can start the real server here. CI installs python3-aiosmtpd and must run these
 * tests (so there it is always true, and a missing package fails); a fresh machine without the
 * Debian package skips them, so that `npm install && npm test` passes there too.
 */
export const SMTP_SERVER_AVAILABLE = Boolean(process.env.CI) || spawnSync('/usr/bin/python3', ['-c', 'import aiosmtpd'], { stdio: 'ignore' }).status === 0;

const SERVER = String.raw`
import email, json, sys
from email import policy
from aiosmtpd.controller import Controller

class Handler:
    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.content, policy=policy.default)
        text = html = None
        for part in message.walk():
            kind = part.get_content_type()
            if kind == 'text/plain' and text is None:
                text = part.get_content()
            elif kind == 'text/html' and html is None:
                html = part.get_content()
        out = {'mailFrom': envelope.mail_from, 'rcptTos': envelope.rcpt_tos, 'contentType': message.get_content_type(),
               'headers': [[name, str(value)] for name, value in message.items()], 'text': text, 'html': html}
        sys.stdout.write(json.dumps(out) + '\n')
        sys.stdout.flush()
        return '250 OK'

controller = Controller(Handler(), hostname='127.0.0.1', port=int(sys.argv[1]))
controller.start()
sys.stdout.write('READY\n')
sys.stdout.flush()
sys.stdin.read()
controller.stop()
`;

export interface ReceivedMail {
  mailFrom: string;
  rcptTos: string[];
  contentType: string;
  headers: Array<[string, string]>;
  text: string | null;
  html: string | null;
}

/** A header's value (the first one, case-insensitive), unfolded (RFC 5322 §2.2.3) and trimmed. */
export function header(mail: ReceivedMail, name: string): string | undefined {
  return mail.headers.find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1].replace(/\r?\n(?=[ \t])/g, '').trim();
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export class SmtpTestServer {
  readonly messages: ReceivedMail[] = [];
  private child: ChildProcessWithoutNullStreams | null = null;
  private waiters: Array<() => void> = [];

  private constructor(readonly port: number) {}

  static async start(port?: number): Promise<SmtpTestServer> {
    const server = new SmtpTestServer(port ?? (await freePort()));
    await server.up();
    return server;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Start (again) on the same port. */
  async up(): Promise<void> {
    const child = spawn('/usr/bin/python3', ['-c', SERVER, String(this.port)], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    await new Promise<void>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout });
      lines.on('line', (line) => {
        if (line === 'READY') return resolve();
        this.messages.push(JSON.parse(line) as ReceivedMail);
        for (const wake of this.waiters.splice(0)) wake();
      });
      child.once('exit', (code) => reject(new Error(`aiosmtpd exited with ${code}: ${stderr}`)));
    });
  }

  /** Stop the server (messages received so far are kept): connections are refused until up(). */
  async down(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  /** Resolves once at least `count` messages arrived; rejects after `timeoutMs`. */
  async waitFor(count: number, timeoutMs = 10_000): Promise<ReceivedMail[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.messages.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected ${count} messages, got ${this.messages.length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.messages;
  }

  /** Forget the messages received so far. */
  clear(): void {
    this.messages.length = 0;
  }

  async stop(): Promise<void> {
    await this.down();
  }
}

/**
 * What a Kiln's jobs mail, read in turns: each call runs the due jobs (notification, then delivery)
 * and returns the messages that arrived since the previous call, once the server has recorded every
 * one the outbox marks sent (it records a message from its output, which can come after the reply).
 */
export function mailReader(kiln: TestKiln, smtp: SmtpTestServer): () => Promise<ReceivedMail[]> {
  let forgotten = 0;
  return async () => {
    await kiln.worker.drain();
    const sent = await kiln.deps.db.selectFrom('email_outbox').select('id').where('state', '=', 'sent').execute();
    const mails = [...(await smtp.waitFor(sent.length - forgotten))];
    forgotten += smtp.messages.length;
    smtp.clear();
    return mails;
  };
}

/** The local parts of the messages' recipients at example.com, sorted. */
export const recipientNames = (mails: ReceivedMail[]): string[] => mails.flatMap((mail) => mail.rcptTos.map((address) => address.replace(/@example\.com$/, ''))).sort();
