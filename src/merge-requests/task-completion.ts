// GitLab's task_completion_status: the Markdown task list items of a description
// (Taskable::ITEM_PATTERN: a bullet or number, then `[ ]`, `[x]` or `[X]`, then a space).

const TASK_ITEM = /^[ \t]*(?:[-+*]|\d+[.)])[ \t]+\[([ xX~])\](?=[ \t]|$)/gm;

export function taskCompletionStatus(description: string | null): { count: number; completed_count: number } {
  if (!description) return { count: 0, completed_count: 0 };
  let count = 0;
  let completed = 0;
  for (const match of description.matchAll(TASK_ITEM)) {
    // `[~]` is an inapplicable item (GitLab 15.8+): neither counted nor completed.
    if (match[1] === '~') continue;
    count += 1;
    if (match[1] !== ' ') completed += 1;
  }
  return { count, completed_count: completed };
}
