// A JSON body serialised once and sent as is: a handler that has the answer's JSON text already (kept
// entities, http/entity-cache.ts) sends it without serialising it again.
export class JsonText {
  readonly text: string;
  /** What identifies the text (http/etag.ts): answers with the same identity have the same text. */
  readonly identity: string | undefined;

  /** `value` serialised, or taken as the JSON text itself when `serialised`. */
  constructor(value: unknown, serialised = false, identity?: string) {
    this.text = serialised ? (value as string) : JSON.stringify(value);
    this.identity = identity;
  }

  /**
   * A body that is already JSON text, e.g. written by an entity's compiled serialiser (http/entity.ts):
   * sent without parsing or serialising it again.
   */
  static of(text: string, identity?: string): JsonText {
    return new JsonText(text, true, identity);
  }
}
