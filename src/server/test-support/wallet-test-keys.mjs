// Throwaway wallet keys for tests: plain JavaScript, so the contract test (scripts/contract-test.mjs)
// runs it under node without tsx, and the vitest tests use it too (types in wallet-test-keys.d.mts).
import { execFileSync } from 'node:child_process';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
export function throwawayWalletKeys(options = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'skippass-wallet-keys-'));
  const path = (name) => join(dir, name);
  const openssl = (...args) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
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

  const read = (name) => readFileSync(path(name), 'utf8');
  const env = {
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
    googlePublicKey: createPublicKey(google.privateKey),
    /** Another certificate, not issued by the WWDR stand-in (a root of its own). */
    strangerCert: read('root.pem'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
