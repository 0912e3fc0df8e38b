import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yauzl from 'yauzl';
import type { ThrowawayWalletKeys } from './wallet-test-keys.mjs';

export * from './wallet-test-keys.mjs';

/** The files of a zip (a .pkpass), by name, read with yauzl. */
export function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, archive) => {
      if (error) return reject(error);
      const files = new Map<string, Buffer>();
      archive.on('error', reject);
      archive.on('end', () => resolve(files));
      archive.on('entry', (entry: yauzl.Entry) => {
        archive.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            archive.readEntry();
          });
        });
      });
      archive.readEntry();
    });
  });
}

/**
 * Checks a .pkpass's `signature` as a device does: a detached PKCS#7 (DER) over these manifest
 * bytes by a certificate chaining, through the certificates it carries, to the trusted root.
 * Returns openssl's verdict: true when it verifies.
 */
export function verifyManifestSignature(keys: ThrowawayWalletKeys, manifest: Buffer, signature: Buffer): boolean {
  const dir = mkdtempSync(join(keys.dir, 'verify-'));
  writeFileSync(join(dir, 'manifest.json'), manifest);
  writeFileSync(join(dir, 'signature'), signature);
  try {
    execFileSync('openssl', ['smime', '-verify', '-binary', '-inform', 'DER', '-in', 'signature', '-content', 'manifest.json', '-CAfile', keys.rootCertFile, '-purpose', 'any', '-out', '/dev/null'], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
