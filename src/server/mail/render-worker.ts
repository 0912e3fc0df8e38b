// Entry of a mail render thread (render-pool.ts): composes each job it is sent and posts the
// message back, or the reason it cannot be composed.
import { parentPort } from 'node:worker_threads';
import { type ComposeJob, composeMail } from './mail-compose.ts';

if (!parentPort) throw new Error('render-worker.ts runs as a worker thread (render-pool.ts starts it)');
const port = parentPort;

port.on('message', (message: { id: number; job: ComposeJob }) => {
  composeMail(message.job).then(
    (mail) => port.postMessage({ id: message.id, mail }),
    (error: unknown) => port.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
