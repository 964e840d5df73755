// A JSON body serialised once and sent as is: memoised answers (platform/db/read-cache.ts) keep the text,
// so a cache hit skips serialisation, which was the largest remaining step of a cached GET.
export class JsonText {
  readonly text: string;

  constructor(value: unknown) {
    this.text = JSON.stringify(value);
  }
}
