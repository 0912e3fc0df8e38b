import { execFileSync } from 'node:child_process';
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yauzl from 'yauzl';

export const TEST_PASS_TYPE_ID = 'pass.org.example.skippass-test';
export const TEST_TEAM_ID = 'TEST123456';
export const TEST_ISSUER_ID = '3388000000012345678';
export const TEST_SERVICE_ACCOUNT = 'wallet-test@skippass-test.iam.gserviceaccount.com';

/**
 * Throwaway wallet keys, made with the openssl CLI as a club would make its own: a root standing in
 * for Apple's, a WWDR intermediate it signs, and a Pass Type ID certificate the intermediate signs
 * (subject UID = pass type, OU = team, as Apple issues them); and a Google service account key.
 * `env` configures a shop with them; the rest is what a test verifies the wallet files against.
 */
export function throwawayWalletKeys(options: { passphrase?: string } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'skippass-wallet-keys-'));
  const path = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  writeFileSync(path('ca.ext'), 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n');
  writeFileSync(path('signer.ext'), 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n');

  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'root.key', '-out', 'root.pem', '-days', '2', '-subj', '/CN=Throwaway Root CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  openssl('req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'wwdr.key', '-out', 'wwdr.csr', '-subj', '/CN=Throwaway WWDR G4/OU=G4/O=Throwaway');
  openssl('x509', '-req', '-in', 'wwdr.csr', '-CA', 'root.pem', '-CAkey', 'root.key', '-CAcreateserial', '-out', 'wwdr.pem', '-days', '2', '-extfile', 'ca.ext');
  openssl('req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'signer.key', '-out', 'signer.csr', '-subj', `/UID=${TEST_PASS_TYPE_ID}/CN=Pass Type ID: ${TEST_PASS_TYPE_ID}/OU=${TEST_TEAM_ID}/O=Throwaway Club/C=US`);
  openssl('x509', '-req', '-in', 'signer.csr', '-CA', 'wwdr.pem', '-CAkey', 'wwdr.key', '-CAcreateserial', '-out', 'signer.pem', '-days', '2', '-extfile', 'signer.ext');
  if (options.passphrase) {
    openssl('pkcs8', '-topk8', '-in', 'signer.key', '-out', 'signer-encrypted.key', '-v2', 'aes-256-cbc', '-passout', `pass:${options.passphrase}`);
  }

  const google = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const serviceAccount = {
    type: 'service_account',
    project_id: 'skippass-test',
    private_key_id: 'throwaway-key-1',
    private_key: google.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: TEST_SERVICE_ACCOUNT,
  };

  const read = (name: string) => readFileSync(path(name), 'utf8');
  const env: Record<string, string> = {
    APPLE_WALLET_PASS_TYPE_ID: TEST_PASS_TYPE_ID,
    APPLE_WALLET_TEAM_ID: TEST_TEAM_ID,
    APPLE_WALLET_CERT: read('signer.pem'),
    APPLE_WALLET_KEY: read(options.passphrase ? 'signer-encrypted.key' : 'signer.key'),
    ...(options.passphrase ? { APPLE_WALLET_KEY_PASSPHRASE: options.passphrase } : {}),
    APPLE_WALLET_WWDR_CERT: read('wwdr.pem'),
    GOOGLE_WALLET_ISSUER_ID: TEST_ISSUER_ID,
    GOOGLE_WALLET_SERVICE_ACCOUNT: JSON.stringify(serviceAccount),
  };
  return {
    env,
    dir,
    /** The root the WWDR stand-in chains to: what a verifier trusts, as a device trusts Apple's. */
    rootCertFile: path('root.pem'),
    googlePublicKey: createPublicKey(google.privateKey) as KeyObject,
    /** Another certificate, not issued by the WWDR stand-in (a root of its own). */
    strangerCert: read('root.pem'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export type ThrowawayWalletKeys = ReturnType<typeof throwawayWalletKeys>;

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
