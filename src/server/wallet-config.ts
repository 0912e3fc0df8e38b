import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { z } from 'zod';

/** Apple Wallet's keys, checked: the pass signer's certificate and key, and Apple's WWDR intermediate. */
export interface AppleWalletKeys {
  passTypeId: string;
  teamId: string;
  /** PEM. */
  signerCert: string;
  /** The signer's key, decrypted and re-exported as PKCS#1 PEM: the one form node-forge (passkit-generator) always reads. */
  signerKey: string;
  /** PEM. */
  wwdr: string;
}

/** Google Wallet's keys: the issuer, the class passes are saved under, and the service account that signs save links. */
export interface GoogleWalletKeys {
  issuerId: string;
  /** `<issuer ID>.<GOOGLE_WALLET_CLASS>`. */
  classId: string;
  serviceAccountEmail: string;
  privateKey: KeyObject;
  privateKeyId: string | undefined;
}

interface WalletSettings {
  APPLE_WALLET_PASS_TYPE_ID?: string | undefined;
  APPLE_WALLET_TEAM_ID?: string | undefined;
  APPLE_WALLET_CERT?: string | undefined;
  APPLE_WALLET_KEY?: string | undefined;
  APPLE_WALLET_KEY_PASSPHRASE?: string | undefined;
  APPLE_WALLET_WWDR_CERT?: string | undefined;
  GOOGLE_WALLET_ISSUER_ID?: string | undefined;
  GOOGLE_WALLET_SERVICE_ACCOUNT?: string | undefined;
  GOOGLE_WALLET_CLASS: string;
}

const APPLE_REQUIRED = ['APPLE_WALLET_PASS_TYPE_ID', 'APPLE_WALLET_TEAM_ID', 'APPLE_WALLET_CERT', 'APPLE_WALLET_KEY', 'APPLE_WALLET_WWDR_CERT'] as const;
const GOOGLE_REQUIRED = ['GOOGLE_WALLET_ISSUER_ID', 'GOOGLE_WALLET_SERVICE_ACCOUNT'] as const;

/** The fields of a Google Cloud service account's JSON key that signing a save link needs. */
const serviceAccountJson = z.object({
  client_email: z.email(),
  private_key: z.string().includes('PRIVATE KEY'),
  private_key_id: z.string().optional(),
});

/** A PEM as an environment variable may carry it, on one line with "\n" for each newline. */
const pemText = (value: string) => value.replace(/\\n/g, '\n');

/** The parts of a certificate's subject, e.g. {UID: 'pass.org.example', OU: 'ABCDE12345'}. */
function subjectParts(cert: X509Certificate): Map<string, string> {
  return new Map(cert.subject.split('\n').map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

/**
 * A wallet is configured with all of its settings or none, and each is read now, so a shop with a
 * wrong file refuses to start with a message naming the setting, instead of failing its first
 * buyer. Messages name settings and what is wrong with them, never a secret's content.
 */
export function walletKeys(settings: WalletSettings): { apple?: AppleWalletKeys; google?: GoogleWalletKeys; problems: string[] } {
  const problems: string[] = [];
  const partly = (names: readonly string[], optional: readonly string[]) => {
    const set = names.filter((name) => settings[name as keyof WalletSettings] !== undefined);
    const extra = optional.filter((name) => settings[name as keyof WalletSettings] !== undefined);
    if (set.length === names.length) return 'all';
    if (set.length === 0 && extra.length === 0) return 'none';
    const missing = names.filter((name) => !set.includes(name));
    problems.push(`${missing.join(', ')}: missing (${[...set, ...extra].join(', ')} set; this wallet needs all of ${names.join(', ')}, or none)`);
    return 'partly';
  };

  let apple: AppleWalletKeys | undefined;
  if (partly(APPLE_REQUIRED, ['APPLE_WALLET_KEY_PASSPHRASE']) === 'all') apple = appleKeys(settings, problems);
  let google: GoogleWalletKeys | undefined;
  // GOOGLE_WALLET_CLASS has a default, so it alone does not count as half a configuration.
  if (partly(GOOGLE_REQUIRED, []) === 'all') google = googleKeys(settings, problems);
  return { ...(apple ? { apple } : {}), ...(google ? { google } : {}), problems };
}

function appleKeys(settings: WalletSettings, problems: string[]): AppleWalletKeys | undefined {
  const passTypeId = settings.APPLE_WALLET_PASS_TYPE_ID!;
  const teamId = settings.APPLE_WALLET_TEAM_ID!;
  const certificate = (name: 'APPLE_WALLET_CERT' | 'APPLE_WALLET_WWDR_CERT') => {
    try {
      return new X509Certificate(pemText(settings[name]!));
    } catch {
      problems.push(`${name}: not a readable PEM certificate`);
      return undefined;
    }
  };
  const signer = certificate('APPLE_WALLET_CERT');
  const wwdr = certificate('APPLE_WALLET_WWDR_CERT');
  let key: KeyObject | undefined;
  try {
    key = createPrivateKey({ key: pemText(settings.APPLE_WALLET_KEY!), format: 'pem', passphrase: settings.APPLE_WALLET_KEY_PASSPHRASE ?? '' });
  } catch {
    problems.push(
      settings.APPLE_WALLET_KEY_PASSPHRASE === undefined
        ? 'APPLE_WALLET_KEY: not a readable PEM private key (if it is encrypted, set APPLE_WALLET_KEY_PASSPHRASE)'
        : 'APPLE_WALLET_KEY: not a readable PEM private key with APPLE_WALLET_KEY_PASSPHRASE',
    );
  }
  if (key && key.asymmetricKeyType !== 'rsa') {
    problems.push(`APPLE_WALLET_KEY: must be an RSA key (Pass Type ID certificates are RSA), not ${key.asymmetricKeyType}`);
    key = undefined;
  }
  if (!signer || !wwdr || !key) return undefined;
  const before = problems.length;
  if (!signer.checkPrivateKey(key)) problems.push('APPLE_WALLET_KEY: is not the key of APPLE_WALLET_CERT');
  // Wallet rejects a pass whose signer does not chain to the WWDR certificate the package carries.
  if (!signer.checkIssued(wwdr) || !signer.verify(wwdr.publicKey)) {
    problems.push('APPLE_WALLET_WWDR_CERT: did not issue APPLE_WALLET_CERT (Pass Type ID certificates are issued by Apple WWDR G4)');
  }
  // A Pass Type ID certificate names its pass type (UID) and team (OU); a pass signed for another is refused by Wallet.
  const subject = subjectParts(signer);
  if (subject.has('UID') && subject.get('UID') !== passTypeId) {
    problems.push(`APPLE_WALLET_PASS_TYPE_ID: APPLE_WALLET_CERT is for ${subject.get('UID')}, not ${passTypeId}`);
  }
  if (subject.has('OU') && subject.get('OU') !== teamId) {
    problems.push(`APPLE_WALLET_TEAM_ID: APPLE_WALLET_CERT belongs to team ${subject.get('OU')}, not ${teamId}`);
  }
  if (problems.length > before) return undefined;
  return {
    passTypeId,
    teamId,
    signerCert: signer.toString(),
    signerKey: key.export({ type: 'pkcs1', format: 'pem' }).toString(),
    wwdr: wwdr.toString(),
  };
}

function googleKeys(settings: WalletSettings, problems: string[]): GoogleWalletKeys | undefined {
  let json: unknown;
  try {
    json = JSON.parse(settings.GOOGLE_WALLET_SERVICE_ACCOUNT!);
  } catch {
    problems.push('GOOGLE_WALLET_SERVICE_ACCOUNT: not JSON (set the service account key file Google Cloud downloads, or point GOOGLE_WALLET_SERVICE_ACCOUNT_FILE at it)');
    return undefined;
  }
  const account = serviceAccountJson.safeParse(json);
  if (!account.success) {
    problems.push(`GOOGLE_WALLET_SERVICE_ACCOUNT: not a service account key (needs ${account.error.issues.map((issue) => issue.path.join('.')).join(', ')})`);
    return undefined;
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pemText(account.data.private_key));
  } catch {
    problems.push('GOOGLE_WALLET_SERVICE_ACCOUNT: its private_key is not a readable PEM private key');
    return undefined;
  }
  // Save links are RS256 JWTs; Google service account keys are RSA.
  if (privateKey.asymmetricKeyType !== 'rsa') {
    problems.push(`GOOGLE_WALLET_SERVICE_ACCOUNT: its private_key must be RSA, not ${privateKey.asymmetricKeyType}`);
    return undefined;
  }
  return {
    issuerId: settings.GOOGLE_WALLET_ISSUER_ID!,
    classId: `${settings.GOOGLE_WALLET_ISSUER_ID!}.${settings.GOOGLE_WALLET_CLASS}`,
    serviceAccountEmail: account.data.client_email,
    privateKey,
    privateKeyId: account.data.private_key_id,
  };
}
