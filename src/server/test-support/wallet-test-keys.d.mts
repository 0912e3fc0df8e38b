import type { KeyObject } from 'node:crypto';

export const TEST_PASS_TYPE_ID: string;
export const TEST_TEAM_ID: string;
export const TEST_ISSUER_ID: string;
export const TEST_SERVICE_ACCOUNT: string;

export interface ThrowawayWalletKeys {
  /** Configures a shop with both wallets. */
  env: Record<string, string>;
  dir: string;
  /** The root the WWDR stand-in chains to: what a verifier trusts, as a device trusts Apple's. */
  rootCertFile: string;
  googlePublicKey: KeyObject;
  /** Another certificate, not issued by the WWDR stand-in (a root of its own). */
  strangerCert: string;
  remove(): void;
}

export function throwawayWalletKeys(options?: { passphrase?: string }): ThrowawayWalletKeys;
