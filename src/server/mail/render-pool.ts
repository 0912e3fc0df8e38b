import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ComposedMail, ComposeJob } from './mail-compose.ts';

/** Makes outbox rows into messages, away from the event loop that answers buyers. */
export interface MailRenderer {
  /**
   * Rejects with MailRenderError when the row cannot be composed, with RenderThreadLost when its
   * thread died. allThreads: false keeps the job on the first thread (buyers are waiting).
   */
  compose(job: ComposeJob, options?: { allThreads?: boolean }): Promise<ComposedMail>;
  /** Stops the threads; a later compose starts them again. */
  close(): Promise<void>;
}

/** The row cannot be made into a message (unknown kind, malformed payload): a retry would not help. */
export class MailRenderError extends Error {}

/** The thread composing the row died (a crash, out of memory): nothing is wrong with the row, so it is retried. */
export class RenderThreadLost extends Error {}

interface Pending {
  resolve: (mail: ComposedMail) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
}

/**
 * The built server runs render-worker.js. Under vitest or tsx this module is TypeScript, and so
 * is the worker, which registers tsx's loader before importing it (an --import flag in the
 * worker's execArgv does not load TypeScript in Node 20's worker threads).
 */
function startWorker(entry?: URL): Worker {
  if (entry) return new Worker(entry);
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./render-worker.js', import.meta.url));
  // Only ever reached from the TypeScript sources (a dev checkout), never from dist/: the loader is
  // a dev dependency, named as data so the built server holds no import of it.
  // Evaluated code resolves it from the working directory: the repository, under vitest and tsx.
  const loader = JSON.stringify('tsx/esm/api');
  const source = JSON.stringify(new URL('./render-worker.ts', import.meta.url).href);
  return new Worker(`import(${loader}).then((api) => { api.register(); return import(${source}); })`, { eval: true });
}

/**
 * A few worker threads that compose mail (template, QR PNG, MIME; see mail-compose.ts) so that
 * a rush's confirmations do not take CPU from the event loop answering purchases, and the rush's
 * last mail goes out sooner (ADR 0018; measured against composing on the loop in ADR 0022). Jobs
 * go to the thread with the fewest in flight. A thread that dies rejects its jobs with
 * RenderThreadLost, and the outbox schedules those rows again like any temporary failure; the
 * next job starts a new thread. Idle threads do not keep the process alive.
 */
export function renderPool(options: { threads?: number; entry?: URL } = {}): MailRenderer {
  // Two where the machine has two cores: once no buyer waits, both render, with the outbox's two
  // batches in flight (ADR 0037); while buyers wait, one does.
  const size = Math.max(1, options.threads ?? Math.min(2, availableParallelism()));
  let threads: Thread[] = [];
  let nextId = 1;

  function start(): Thread {
    const worker = startWorker(options.entry);
    const thread: Thread = { worker, pending: new Map() };
    worker.unref();
    const lose = (reason: string) => {
      threads = threads.filter((t) => t !== thread);
      for (const job of thread.pending.values()) job.reject(new RenderThreadLost(`mail rendering thread stopped (${reason}); will retry`));
      thread.pending.clear();
    };
    worker.on('message', (message: { id: number; mail?: ComposedMail; error?: string }) => {
      const job = thread.pending.get(message.id);
      if (!job) return;
      thread.pending.delete(message.id);
      if (thread.pending.size === 0) worker.unref();
      if (message.mail) {
        // Buffers arrive as plain Uint8Arrays: view the same bytes as Buffers again.
        const mail = message.mail;
        const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        job.resolve({
          ...mail,
          raw: asBuffer(mail.raw),
          ...(mail.attachments ? { attachments: mail.attachments.map((a) => ({ ...a, content: asBuffer(a.content) })) } : {}),
        });
      } else {
        job.reject(new MailRenderError(message.error ?? 'the mail could not be rendered'));
      }
    });
    worker.on('error', (error) => lose(error.message));
    worker.on('exit', (code) => lose(`exit code ${code}`));
    threads.push(thread);
    return thread;
  }

  /** An idle thread first: a second starts only for a job that would otherwise queue. */
  function pick(allThreads: boolean): Thread {
    if (!allThreads) return threads[0] ?? start();
    const idle = threads.find((thread) => thread.pending.size === 0);
    if (idle) return idle;
    if (threads.length < size) return start();
    return threads.reduce((best, thread) => (thread.pending.size < best.pending.size ? thread : best));
  }

  return {
    compose(job, { allThreads = true } = {}) {
      const thread = pick(allThreads);
      const id = nextId++;
      return new Promise<ComposedMail>((resolve, reject) => {
        thread.pending.set(id, { resolve, reject });
        // A job in flight keeps the process alive until its answer arrives.
        thread.worker.ref();
        thread.worker.postMessage({ id, job });
      });
    },
    async close() {
      const stopping = threads;
      threads = [];
      await Promise.all(stopping.map((thread) => thread.worker.terminate()));
    },
  };
}
