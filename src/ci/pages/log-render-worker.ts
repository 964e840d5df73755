// A job-log worker thread (log-render-pool.ts starts them through platform/worker-pool.ts): renders
// each piece of log it is sent, from the state the previous render ended with, and answers the
// increment. Here nothing else waits for the thread, so the render runs in one pass.
import { parentPort } from 'node:worker_threads';
import { renderLogText, type LogIncrement, type LogState } from './job-log.js';

export interface LogRenderTask {
  text: string;
  offset: number;
  from: LogState | null;
}

const port = parentPort!;
port.on('message', ({ id, input }: { id: number; input: LogRenderTask }) => {
  renderLogText(input.text, input.offset, input.from, Number.MAX_SAFE_INTEGER).then(
    (output: LogIncrement) => port.postMessage({ id, output }),
    (error: unknown) => port.postMessage({ id, error: String((error as Error)?.message ?? error) }),
  );
});
port.postMessage({ ready: true });
