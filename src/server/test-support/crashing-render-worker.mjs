// A mail render thread that dies on its first job, as one would on a crash or out of memory:
// render-pool and outbox tests use it to show the job is retried, not lost.
import { parentPort } from 'node:worker_threads';

parentPort?.on('message', () => process.exit(70));
