// GitLab's default issue_closing_pattern (14–16): `Closes #1`, `Fixes group/project#2 and #3`,
// `Resolves https://…/-/issues/4`, `Implements …`, with the references it names. Pure.

const REFERENCE = String.raw`(?:https?:\/\/\S+?\/-\/issues\/\d+|(?:[A-Za-z0-9_.\-]+(?:\/[A-Za-z0-9_.\-]+)*)?#\d+)`;
const STATEMENT = new RegExp(
  String.raw`\b(?:[Cc]los(?:e[sd]?|ing)|\b[Ff]ix(?:e[sd]|ing)?|\b[Rr]esolv(?:e[sd]?|ing)|\b[Ii]mplement(?:s|ed|ing)?):? +((?:(?:issues? +)?${REFERENCE}(?:(?: *,? +and +| *,? *)?))+)`,
  'g',
);
const ONE = new RegExp(String.raw`https?:\/\/\S+?\/-\/issues\/\d+|(?:[A-Za-z0-9_.\-]+(?:\/[A-Za-z0-9_.\-]+)*)?#\d+`, 'g');

/** An issue reference: in the project itself (`path` null), by a path (`project` or `group/project`), or a URL. */
export type ClosingReference = { path: string | null; iid: number } | { url: string; iid: number };

export function closingReferences(text: string | null): ClosingReference[] {
  if (!text) return [];
  const found: ClosingReference[] = [];
  for (const statement of text.matchAll(STATEMENT)) {
    for (const [reference] of statement[1].matchAll(ONE)) {
      const iid = Number(/(\d+)$/.exec(reference)![1]);
      if (reference.startsWith('http')) found.push({ url: reference.slice(0, reference.lastIndexOf('/-/issues/')), iid });
      else {
        const hash = reference.lastIndexOf('#');
        found.push({ path: hash === 0 ? null : reference.slice(0, hash), iid });
      }
    }
  }
  return found;
}
