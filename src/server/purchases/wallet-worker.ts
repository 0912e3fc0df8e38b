// Entry of the Apple Wallet signing thread (wallet-passes.ts starts it): builds and signs each
// .pkpass it is sent and posts the bytes back, or why it could not.
import { parentPort, workerData } from 'node:worker_threads';
import type { AppleWalletKeys } from '../wallet-config.ts';
import { buildAppleWalletPass, type WalletPassContent } from './wallet-passes.ts';

if (!parentPort) throw new Error('wallet-worker.ts runs as a worker thread (wallet-passes.ts starts it)');
const port = parentPort;
const keys = workerData as AppleWalletKeys;

port.on('message', (message: { id: number; content: WalletPassContent }) => {
  try {
    const pkpass = buildAppleWalletPass(keys, message.content);
    port.postMessage({ id: message.id, pkpass });
  } catch (error) {
    port.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
