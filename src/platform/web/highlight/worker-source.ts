// The highlighting worker's program, given to `new Worker(…, { eval: true })` as text, so that the
// same code runs from the TypeScript sources (tests) and from dist/ without a file path of its own.
// It loads highlight.js (every language) once and answers batches: for each text, the language
// highlight.js knows by the asked name, and the markup, or null for plain text.
export const WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const hljs = require(workerData.highlightJs);
hljs.configure({ ignoreUnescapedHTML: true, throwUnescapedHTML: false });
parentPort.on('message', (batch) => {
  const answers = batch.texts.map((item) => {
    const language = item.language && hljs.getLanguage(item.language) ? item.language : null;
    if (!language) return null;
    try {
      return hljs.highlight(item.text, { language, ignoreIllegals: true }).value;
    } catch {
      return null;
    }
  });
  parentPort.postMessage({ id: batch.id, answers });
});
parentPort.postMessage({ ready: true });
`;
