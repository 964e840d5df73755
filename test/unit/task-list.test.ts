// Task lists: rendered as checkboxes named by their source line, ticked in place, a single tick
// recognised as such (for its system note).
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/markdown/render-markdown.js';
import { changedTask, setTasks, taskOf } from '../../src/issues/task-list.js';

const TEXT = 'Intro\n\n- [ ] first <b>x</b>\n- [x] second\n  - [X] nested\n\n> - [ ] quoted\n\n```\n- [ ] code\n```\n\n1. [ ] numbered\n2. [] not a task\n';

describe('task lists', () => {
  it('renders each item as a disabled checkbox naming its line, text escaped, code left alone', () => {
    const out = renderMarkdown(TEXT, { gfm: true });
    expect(out).toContain('<input type="checkbox" class="task-list-item-checkbox" name="task[]" value="2" data-task-line="2" aria-label="first &lt;b&gt;x&lt;/b&gt;" disabled> first &lt;b&gt;x&lt;/b&gt;');
    expect(out).toMatch(/value="3"[^>]* checked disabled> second/);
    expect(out).toMatch(/value="4"[^>]* checked disabled> nested/);
    expect(out).toMatch(/value="6"[^>]* disabled> quoted/);
    expect(out).toMatch(/value="12"[^>]* disabled> numbered/);
    expect(out).toContain('- [ ] code');
    expect(out).toContain('[] not a task');
    expect(out.match(/task-list-item-checkbox/g)).toHaveLength(5);
    expect(out).toContain('<li class="task-list-item">');
  });

  it('is not rendered by the plain pipeline', () => {
    expect(renderMarkdown('- [ ] a', { gfm: false })).not.toContain('checkbox');
  });

  it('ticks the shown lines in place and leaves other lines alone', () => {
    const next = setTasks(TEXT, [0, 2, 3, 6], new Set([0, 2, 6]));
    expect(next.split('\n')[2]).toBe('- [x] first <b>x</b>');
    expect(next.split('\n')[3]).toBe('- [ ] second');
    expect(next.split('\n')[4]).toBe('  - [X] nested');
    expect(next.split('\n')[6]).toBe('> - [x] quoted');
    // A line that is no task item stays as it was, whatever the form said.
    expect(next.split('\n')[0]).toBe('Intro');
  });

  it('recognises a single tick as such, not other edits', () => {
    expect(changedTask('- [ ] a\n- [ ] b', '- [ ] a\n- [x] b')).toEqual({ checked: true, text: 'b' });
    expect(changedTask('- [ ] a', '- [ ] b')).toBeNull();
    expect(changedTask('- [ ] a\n- [ ] b', '- [x] a\n- [x] b')).toBeNull();
    expect(taskOf('plain')).toBeNull();
  });
});
