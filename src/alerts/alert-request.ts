// What the alert endpoint receives and answers (receive-alert.ts), shared with the integrations it
// remembers between requests (remembered-integrations.ts).
import type { ProcessedAlert } from './process-alert-payload.js';

export type Endpoint = { identifier: string } | { legacy: 'http' | 'prometheus' };

export interface AlertRequest {
  fullPath: string;
  endpoint: Endpoint;
  authorization: string | undefined;
  /** The body as received, when it was JSON. */
  rawBody: string | undefined;
  /** The parsed body; left undefined, `rawBody` is parsed once the key has been checked. */
  body: unknown;
  /** A JSON content type carried text that does not parse. */
  invalidJson?: boolean;
  /** The text nests deeper than the endpoint allows (found before or instead of parsing it). */
  tooDeep?: boolean;
}

export type Refusal = { status: 400 | 401 | 403 | 404 | 422; body: { message: string } };
/** `json`: the body already serialised (the hot path answers the same few bodies again and again). */
export type AlertResponse = { status: 200; body: ProcessedAlert[]; json?: string } | Refusal;
