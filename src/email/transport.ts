// Where composed messages go: an SMTP server (KILN_SMTP_URL, pooled connections), or, without one,
// .eml files under <data>/mail so that `npm start` alone shows what would be sent.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import type { Config } from '../config.js';
import { PRIVATE_DIR_MODE } from '../platform/data-dir.js';

export interface Envelope {
  from: string;
  to: string;
  subject: string;
  messageId: string;
  headers: Record<string, string>;
  text: string;
  /** Empty: a plain-text message (html_emails_enabled off when it was queued). */
  html: string;
}

export interface MailTransport {
  /** Sends one message; resolves with the .eml file written (file mode) or null (SMTP). */
  send(envelope: Envelope, name: string): Promise<string | null>;
  close(): void;
}

export function mailDirectory(config: Config): string {
  return join(config.dataDir, 'mail');
}

/**
 * Timeouts are short: the worker runs jobs one at a time, so a server that accepts the connection and
 * then hangs must fail the try (it is retried with backoff) rather than hold every other job.
 */
function smtpTransport(nodemailer: Nodemailer, url: string): Transporter {
  const options: SMTPPool.Options = {
    url,
    pool: true,
    maxConnections: 5,
    maxMessages: 1000,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    // Our own TCP socket (nodemailer connects it, and starts TLS on it for smtps://) with Nagle's
    // algorithm off: SMTP is a dialogue of small writes, and holding each for the peer's ACK cost
    // time per message (measured against aiosmtpd on loopback: 4.1 ms a message with it, 2.0 without).
    getSocket: (_options, callback) => {
      const socket = new Socket();
      socket.setNoDelay(true);
      callback(null, { socket });
    },
  };
  return nodemailer.createTransport(options);
}

function message(envelope: Envelope) {
  return {
    from: envelope.from,
    to: envelope.to,
    subject: envelope.subject,
    messageId: envelope.messageId,
    headers: envelope.headers,
    text: envelope.text,
    ...(envelope.html === '' ? {} : { html: envelope.html }),
  };
}

type Nodemailer = typeof import('nodemailer');

/**
 * The transport of the first message (deliver-emails.ts makes it then): nodemailer is loaded with it,
 * not at every start, where it was ~130 ms of loading for a node that may never send mail.
 */
export function createMailTransport(config: Config): MailTransport {
  const made = import('nodemailer').then((nodemailer) => transportOf(nodemailer, config));
  return {
    send: async (envelope, name) => (await made).send(envelope, name),
    // A transport that never loaded has nothing to close (its send already failed the job).
    close: () => void made.then((transport) => transport.close(), () => undefined),
  };
}

function transportOf(nodemailer: Nodemailer, config: Config): MailTransport {
  if (config.smtpUrl) {
    const transport = smtpTransport(nodemailer, config.smtpUrl);
    return {
      async send(envelope) {
        await transport.sendMail(message(envelope));
        return null;
      },
      close: () => transport.close(),
    };
  }
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const directory = mailDirectory(config);
  return {
    async send(envelope, name) {
      const built = (await builder.sendMail(message(envelope))) as unknown as { message: Buffer };
      mkdirSync(directory, { recursive: true, mode: PRIVATE_DIR_MODE });
      const file = `${name}.eml`;
      writeFileSync(join(directory, file), built.message, { mode: 0o600 });
      return file;
    },
    close: () => builder.close(),
  };
}
