// Task lists in an issue's description (GitLab's TaskList): the `[ ]` and `[x]` items of Markdown
// lists, found by their source line as the renderer numbers them (markdown/render-markdown.ts), and
// ticked or unticked in place. Pure functions over the text.
import { createHash } from 'node:crypto';

/** A list item's marker and its box: `- [ ] `, `1. [x] `, `> * [X] ` (a quoted list). */
const TASK_LINE = /^((?:[ \t]*>)*[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+)\[([ xX])\](?=[ \t]|$)/;

export interface TaskLine {
  checked: boolean;
  /** The item's text after the box. */
  text: string;
}

export function taskOf(line: string): TaskLine | null {
  const match = TASK_LINE.exec(line);
  if (!match) return null;
  return { checked: match[2] !== ' ', text: line.slice(match[0].length).trim() };
}

/** The version of a description a page showed: a change by someone else since then changes it. */
export function descriptionVersion(description: string | null): string {
  return createHash('sha256').update(description ?? '').digest('hex').slice(0, 32);
}

/**
 * The description with the items on `shown` lines ticked when in `checked`, unticked otherwise.
 * Lines that are not task items are left alone, whatever the form said.
 */
export function setTasks(description: string, shown: number[], checked: Set<number>): string {
  const lines = description.split('\n');
  for (const index of shown) {
    const line = lines[index];
    if (line === undefined) continue;
    const match = TASK_LINE.exec(line);
    if (!match) continue;
    lines[index] = `${match[1]}[${checked.has(index) ? 'x' : ' '}]${line.slice(match[0].length)}`;
  }
  return lines.join('\n');
}

/** The one item ticked or unticked between two versions, when that is the whole change. */
export function changedTask(before: string, after: string): TaskLine | null {
  const old = before.split('\n');
  const now = after.split('\n');
  if (old.length !== now.length) return null;
  const differing = old.map((line, index) => (line === now[index] ? -1 : index)).filter((index) => index >= 0);
  if (differing.length !== 1) return null;
  const was = taskOf(old[differing[0]]);
  const is = taskOf(now[differing[0]]);
  if (!was || !is || was.text !== is.text || was.checked === is.checked) return null;
  return is;
}
