import { endpoint } from './contract.ts';
import { passCodeParams } from './pass-page.ts';

/** What the wallet endpoints answer when they give no pass; the code says which case it is. */
export const WALLET_ERRORS = {
  appleOff: 'This shop does not offer Apple Wallet passes.',
  googleOff: 'This shop does not offer Google Wallet passes.',
  voided: 'This pass was voided: it no longer admits, so it cannot be added to a wallet.',
} as const;

const errors = {
  400: 'The code is not a signed pass code, e.g. a bare pass ID (error.code invalid_request)',
  404: 'No wallet pass: this wallet is not configured (error.code wallet_not_offered), no pass has this code (not_found), or the pass was voided (pass_voided)',
  429: 'Too many lookups from this client (error.code rate_limited)',
} as const;

export const getAppleWalletPass = endpoint({
  method: 'GET',
  path: '/api/passes/:code/apple-wallet',
  summary: 'The pass as an Apple Wallet pass (.pkpass), signed with the shop’s Pass Type ID certificate',
  tag: 'purchases',
  access: 'public',
  params: passCodeParams,
  success: { status: 200, schema: undefined, contentType: 'application/vnd.apple.pkpass', description: 'The .pkpass, as an attachment; its barcode is the pass link' },
  errors,
});

export const saveToGoogleWallet = endpoint({
  method: 'GET',
  path: '/api/passes/:code/google-wallet',
  summary: 'Save the pass to Google Wallet: a redirect to Google’s save link, a JWT signed with the shop’s service account',
  tag: 'purchases',
  access: 'public',
  params: passCodeParams,
  success: { status: 302, schema: undefined, description: 'Location: https://pay.google.com/gp/v/save/<signed JWT>; its barcode is the pass link' },
  errors,
});
