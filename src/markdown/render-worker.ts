// A Markdown worker thread (bounded-render.ts starts them through platform/worker-pool.ts): renders
// each text it is sent and answers the HTML, or the reason it would not.
import { parentPort } from 'node:worker_threads';
import { NestingTooDeep, renderMarkdown, type RenderOptions } from './render-markdown.js';

export interface RenderTask {
  text: string;
  options: RenderOptions;
}

/** The HTML, or `nesting` when the text nests deeper than MAX_NESTING. */
export type RenderAnswer = { html: string } | { refused: 'nesting' };

const port = parentPort!;
port.on('message', ({ id, input }: { id: number; input: RenderTask }) => {
  try {
    const output: RenderAnswer = { html: renderMarkdown(input.text, input.options) };
    port.postMessage({ id, output });
  } catch (error) {
    if (error instanceof NestingTooDeep) port.postMessage({ id, output: { refused: 'nesting' } satisfies RenderAnswer });
    else port.postMessage({ id, error: String((error as Error)?.message ?? error) });
  }
});
port.postMessage({ ready: true });
