import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_ERRORS } from '../../core/messages.ts';
import type { PassPage } from '../../core/api/pass-page.ts';
import { getAppleWalletPass, saveToGoogleWallet, WALLET_ERRORS } from '../../core/api/wallet.ts';
import { ApiError } from '../errors.ts';
import type { ShopLimits } from '../limits/limits.ts';
import { route } from '../platform/api-contract.ts';
import type { AppleWalletKeys, GoogleWalletKeys } from '../wallet-config.ts';
import type { PassCodes } from './pass-codes.ts';
import { PASS_PAGE_HEADERS, type passPageReader } from './pass-page-routes.ts';
import { appleWalletFileName, googleWalletLinks, type WalletPassContent } from './wallet-passes.ts';
import { appleWalletSigner } from './wallet-thread.ts';

/** The wallets a shop offers: each is there when all its keys are configured (config.ts). */
export interface Wallets {
  apple: AppleWalletKeys | undefined;
  google: GoogleWalletKeys | undefined;
  productName: string;
  publicUrl: string;
}

/**
 * The wallet links of a pass, for its page and its mails: full URLs of this shop's wallet endpoints
 * under PUBLIC_URL, one per configured wallet (none when neither is). The pass's signed code is
 * their key, like the pass page's: a pass ID alone opens nothing.
 */
export function walletLinks(wallets: Pick<Wallets, 'apple' | 'google' | 'publicUrl'>, passCodes: Pick<PassCodes, 'code'>) {
  return async (passId: string): Promise<PassPage['wallet']> => {
    if (!wallets.apple && !wallets.google) return {};
    const code = encodeURIComponent(await passCodes.code(passId));
    const at = (path: string) => `${wallets.publicUrl}${path.replace(':code', code)}`;
    return {
      ...(wallets.apple ? { apple: at(getAppleWalletPass.path) } : {}),
      ...(wallets.google ? { google: at(saveToGoogleWallet.path) } : {}),
    };
  };
}

/**
 * GET /api/passes/:code/apple-wallet and /google-wallet: the pass in a wallet. Like the pass page,
 * the signature is checked first and the pass read the same way (stored or spooled); a voided pass
 * gets no wallet pass. Both answer 404 when their wallet is not configured.
 */
export function walletRoutes(
  app: FastifyInstance,
  deps: { wallets: Wallets; passCodes: PassCodes; limits: ShopLimits; readPassPage: ReturnType<typeof passPageReader> },
) {
  const { apple, google, productName, publicUrl } = deps.wallets;
  const signer = apple ? appleWalletSigner(apple) : undefined;
  if (signer) app.addHook('onClose', () => signer.close());
  const saveLinks = google ? googleWalletLinks(google, publicUrl) : undefined;

  /** The pass a wallet request names, valid or used; a 404 for anything else. */
  async function passFor(request: FastifyRequest<{ Params: { code: string } }>, reply: FastifyReply): Promise<PassPage> {
    reply.headers(PASS_PAGE_HEADERS);
    const parsed = deps.passCodes.parse(request.params.code);
    if (parsed.kind !== 'signed') throw new ApiError(404, 'not_found', API_ERRORS.notFound);
    await deps.limits.passPage(reply, request.ip);
    const page = await deps.readPassPage(parsed.id, request.log);
    if (!page) throw new ApiError(404, 'not_found', API_ERRORS.notFound);
    if (page.state.status === 'voided') throw new ApiError(404, 'pass_voided', WALLET_ERRORS.voided);
    return page;
  }

  /** What a wallet pass shows: the page's pass, link and event (its state and links stay behind). */
  const contentOf = (page: PassPage): WalletPassContent => ({
    productName,
    page: { pass: page.pass, passUrl: page.passUrl, ...(page.event ? { event: page.event } : {}) },
  });

  route(app, getAppleWalletPass, async (request, reply) => {
    if (!signer) throw new ApiError(404, 'wallet_not_offered', WALLET_ERRORS.appleOff);
    const page = await passFor(request, reply);
    const pkpass = await signer.build(contentOf(page));
    return reply
      .header('content-type', 'application/vnd.apple.pkpass')
      .header('content-disposition', `attachment; filename="${appleWalletFileName(productName, page.pass.id)}"`)
      .send(pkpass);
  });

  route(app, saveToGoogleWallet, async (request, reply) => {
    if (!saveLinks) throw new ApiError(404, 'wallet_not_offered', WALLET_ERRORS.googleOff);
    const page = await passFor(request, reply);
    const link = await saveLinks.saveUrl(contentOf(page));
    return reply.redirect(link, 302);
  });
}
