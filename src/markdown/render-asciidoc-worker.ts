// An AsciiDoc worker thread (bounded-render.ts starts them through platform/worker-pool.ts, apart
// from the Markdown ones): Asciidoctor.js takes a second or more to load, so it is loaded before the
// worker says it is ready — the pool starts a task's time budget only then.
import { parentPort } from 'node:worker_threads';
import Asciidoctor from '@asciidoctor/core';
import { renderAsciidoc } from './render-asciidoc.js';
import type { RenderAnswer, RenderTask } from './render-worker.js';

const processor = Asciidoctor();
const port = parentPort!;
port.on('message', ({ id, input }: { id: number; input: RenderTask }) => {
  try {
    port.postMessage({ id, output: { html: renderAsciidoc(processor, input.text, input.options) } satisfies RenderAnswer });
  } catch (error) {
    port.postMessage({ id, error: String((error as Error)?.message ?? error) });
  }
});
port.postMessage({ ready: true });
