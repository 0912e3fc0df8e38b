import { Worker } from 'node:worker_threads';
import type { AppleWalletKeys } from '../wallet-config.ts';
import type { WalletPassContent } from './wallet-passes.ts';

/** Builds .pkpass files off the event loop. */
export interface AppleWalletSigner {
  /** The signed .pkpass; rejects when it cannot be built, or its thread died (the next call starts another). */
  build(content: WalletPassContent): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * The built server runs wallet-worker.js. Under vitest or tsx this module is TypeScript, and so is
 * the worker, which registers tsx's loader before importing it (as mail/render-pool.ts does, for
 * the same reason: Node 20's worker threads take no TypeScript loader from execArgv).
 */
function startWorker(keys: AppleWalletKeys): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./wallet-worker.js', import.meta.url), { workerData: keys });
  const loader = JSON.stringify('tsx/esm/api');
  const source = JSON.stringify(new URL('./wallet-worker.ts', import.meta.url).href);
  return new Worker(`import(${loader}).then((api) => { api.register(); return import(${source}); })`, { eval: true, workerData: keys });
}

/**
 * One thread that signs Apple Wallet passes: node-forge's RSA took up to 0.9 s of CPU a
 * pass on a busy machine (ADR 0024), which on the event loop would stall every buyer's request behind
 * it. Started at the first pass, unreferenced while idle so it never keeps the process alive.
 */
export function appleWalletSigner(keys: AppleWalletKeys): AppleWalletSigner {
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<number, { resolve: (pkpass: Buffer) => void; reject: (error: Error) => void }>();

  function start(): Worker {
    const thread = startWorker(keys);
    thread.unref();
    const lose = (reason: string) => {
      if (worker === thread) worker = undefined;
      for (const job of pending.values()) job.reject(new Error(`the wallet signing thread stopped (${reason})`));
      pending.clear();
    };
    thread.on('message', (message: { id: number; pkpass?: Uint8Array; error?: string }) => {
      const job = pending.get(message.id);
      if (!job) return;
      pending.delete(message.id);
      if (pending.size === 0) thread.unref();
      if (message.pkpass) job.resolve(Buffer.from(message.pkpass.buffer, message.pkpass.byteOffset, message.pkpass.byteLength));
      else job.reject(new Error(message.error ?? 'the wallet pass could not be built'));
    });
    thread.on('error', (error) => lose(error.message));
    thread.on('exit', (code) => lose(`exit code ${code}`));
    return thread;
  }

  return {
    build(content) {
      worker ??= start();
      const thread = worker;
      const id = nextId++;
      return new Promise<Buffer>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        thread.ref();
        thread.postMessage({ id, content });
      });
    },
    async close() {
      const stopping = worker;
      worker = undefined;
      await stopping?.terminate();
    },
  };
}
