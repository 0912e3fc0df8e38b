import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { type AppleWalletKeys, type GoogleWalletKeys, walletKeys } from './wallet-config.ts';
import { DEFAULT_PAYMENT_DELAY_MS, DEFAULT_PRODUCT_NAME } from '../core/constants.ts';

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const timeZone = z.string().refine((zone) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}, 'must be an IANA time zone such as America/New_York');

/**
 * Every setting, parsed once at start. Each has a default that serves a single machine.
 * Empty strings count as unset so `FOO=` in a shell behaves like leaving it out.
 */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  PUBLIC_URL: z.url().optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().optional(),
  PAYMENT_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(DEFAULT_PAYMENT_DELAY_MS),
  /** SPEC section 9: the older, event-specific purchase view simulates a 1.5 s payment. */
  EVENT_PAYMENT_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1500),
  PAYMENT_FAILURE_RATE: z.coerce.number().min(0).max(1).default(0),
  /** Share of simulated refunds refused (issue 13); unset: PAYMENT_FAILURE_RATE. Lets a test shop sell but not refund. */
  REFUND_FAILURE_RATE: z.coerce.number().min(0).max(1).optional(),
  /** Benchmarks only: the simulated provider appends one line per successful charge to this file (unset: off). */
  PAYMENT_LEDGER_FILE: z.string().min(1).optional(),
  PRODUCT_NAME: z.string().min(1).max(60).default(DEFAULT_PRODUCT_NAME),
  SHOP_TIMEZONE: timeZone.default(() => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'),
  FEEDBACK_URL: z.url({ protocol: /^https?$/ }).default('https://forms.gle/skippass-feedback'),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Ed25519 private key (PKCS#8 PEM; "\n" may stand for newlines) that signs new passes (ADR 0014). */
  PASS_SIGNING_KEY: z.string().includes('PRIVATE KEY', { message: 'must be a PEM private key' }).optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(30),
  CONTACT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(5),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(10),
  /** Purchase confirmations one client IP may cause to one email address per 10 minutes. */
  CONFIRMATIONS_PER_ADDRESS: z.coerce.number().int().min(0).default(10),
  /** Find my pass requests per client IP per 10 minutes (0: off). */
  FIND_PASS_RATE_LIMIT_PER_10_MINUTES: z.coerce.number().int().min(0).default(10),
  /** Pass page lookups per client IP per minute (0: off). */
  PASS_PAGE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(60),
  /** Confirmations staff may send again to one email address per 10 minutes (0: off). */
  RESENDS_PER_ADDRESS: z.coerce.number().int().min(0).default(5),
  /**
   * Days after its event (after the purchase, for an Any Event Pass) a buyer's name and email are
   * erased; also how long mails, contact requests and held purchases keep theirs (0: never; ADR 0032).
   */
  BUYER_DATA_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(30),
  TRUST_PROXY: flag.default(false),
  SPOOL_REPLAY_INTERVAL_MS: z.coerce.number().int().min(100).default(5000),
  /** GET /metrics with `Authorization: Bearer <token>` from anywhere (16+ characters; unset: no token opens it). */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Addresses that may read /metrics without the token when they connect directly (not through a proxy). */
  METRICS_ALLOW: z
    .string()
    .default('127.0.0.1,::1')
    .transform((list) => list.split(',').map((address) => address.trim()).filter(Boolean))
    .pipe(z.array(z.ipv4().or(z.ipv6()))),
  /** On SIGTERM, how long requests in flight (a payment included) may take before the process exits anyway. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(20_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Apple Wallet (all five, or none; the passphrase only if the key has one): wallet-config.ts checks them together. */
  APPLE_WALLET_PASS_TYPE_ID: z.string().regex(/^pass\.[A-Za-z0-9.-]+$/, 'must be a Pass Type ID such as pass.org.example.skippass').optional(),
  APPLE_WALLET_TEAM_ID: z.string().regex(/^[A-Z0-9]{10}$/, 'must be the 10-character Apple Developer Team ID').optional(),
  APPLE_WALLET_CERT: z.string().optional(),
  APPLE_WALLET_KEY: z.string().optional(),
  APPLE_WALLET_KEY_PASSPHRASE: z.string().optional(),
  APPLE_WALLET_WWDR_CERT: z.string().optional(),
  /** Google Wallet (both, or neither). */
  GOOGLE_WALLET_ISSUER_ID: z.string().regex(/^\d{1,25}$/, 'must be the numeric Issuer ID from the Google Pay & Wallet Console').optional(),
  GOOGLE_WALLET_SERVICE_ACCOUNT: z.string().optional(),
  /** The generic class passes are saved under, `<issuer ID>.<this>`: the save link creates it if it does not exist. */
  GOOGLE_WALLET_CLASS: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'letters, digits, ".", "_" and "-" only').default('skippass'),
});

export type Config = z.output<typeof envSchema> & {
  PUBLIC_URL: string;
  MAIL_FROM: string;
  /** Set when every Apple Wallet setting is, checked at start (wallet-config.ts). */
  appleWallet: AppleWalletKeys | undefined;
  /** Set when both Google Wallet settings are, checked at start. */
  googleWallet: GoogleWalletKeys | undefined;
};

export class ConfigError extends Error {}

/**
 * Settings a container platform may hand over as files (Docker and Kubernetes secrets): `NAME_FILE`
 * names a file whose content is NAME (one trailing newline dropped), so a secret never sits in the
 * environment, where `docker inspect` and child processes see it.
 */
export const SETTINGS_FROM_FILES = [
  'AUTH_SECRET',
  'PASS_SIGNING_KEY',
  'DATABASE_URL',
  'SMTP_URL',
  'METRICS_TOKEN',
  'APPLE_WALLET_CERT',
  'APPLE_WALLET_KEY',
  'APPLE_WALLET_KEY_PASSPHRASE',
  'APPLE_WALLET_WWDR_CERT',
  'GOOGLE_WALLET_SERVICE_ACCOUNT',
] as const;

function readSettingFiles(present: Record<string, string>): Record<string, string> {
  const problems: string[] = [];
  const read: Record<string, string> = {};
  for (const name of SETTINGS_FROM_FILES) {
    const path = present[`${name}_FILE`];
    if (path === undefined) continue;
    if (present[name] !== undefined) {
      problems.push(`  ${name}_FILE: set ${name} or ${name}_FILE, not both`);
      continue;
    }
    try {
      const value = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
      if (value === '') problems.push(`  ${name}_FILE: ${path} is empty`);
      else read[name] = value;
    } catch (error) {
      // The path and the reason, never the content: the file holds a secret.
      problems.push(`  ${name}_FILE: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
    }
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return read;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const given = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''));
  const present = { ...given, ...readSettingFiles(given) };
  const result = envSchema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = result.data;
  const wallets = walletKeys(config);
  if (wallets.problems.length > 0) throw new ConfigError(`Invalid configuration:\n${wallets.problems.map((line) => `  ${line}`).join('\n')}`);
  const publicUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  return {
    ...config,
    PUBLIC_URL: publicUrl,
    MAIL_FROM: config.MAIL_FROM ?? `"${config.PRODUCT_NAME}" <no-reply@${new URL(publicUrl).hostname}>`,
    appleWallet: wallets.apple,
    googleWallet: wallets.google,
  };
}
