import { createServer } from 'node:net';

/**
 * A TCP port nothing listens on right now, chosen by the OS: tests that start server processes
 * on fixed ranges collide with other test files and other projects on a shared machine.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
