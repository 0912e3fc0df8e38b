import type { FastifyInstance } from 'fastify';
import type { PassPage } from '../../core/api/pass-page.ts';
import type { Db } from '../db/database.ts';
import type { ShopLimits } from '../limits/limits.ts';
import type { PurchaseOutcomeName } from '../platform/metrics.ts';
import { findPassRoutes } from './find-pass-routes.ts';
import type { PassCodes } from './pass-codes.ts';
import { passPageReader, passPageRoutes } from './pass-page-routes.ts';
import type { PurchaseService } from './purchase-service.ts';
import { purchaseRoutes } from './purchase-routes.ts';
import type { PurchaseSpool } from './purchase-spool.ts';
import { quarantineAdminRoutes } from './quarantine-admin-routes.ts';
import { walletRoutes, type Wallets } from './wallet-routes.ts';

/** Every route of the purchases slice: buying, a pass's page, finding a pass again, and the held purchases for staff. */
export function mountPurchases(
  app: FastifyInstance,
  deps: {
    db: Db;
    purchases: PurchaseService;
    limits: ShopLimits;
    passCodes: PassCodes;
    spool: PurchaseSpool;
    timeZone: string;
    wallets: Wallets;
    walletLinks: (passId: string) => Promise<PassPage['wallet']>;
    onOutcome: (outcome: PurchaseOutcomeName) => void;
    onMailQueued: () => void;
  },
) {
  purchaseRoutes(app, deps);
  passPageRoutes(app, deps);
  walletRoutes(app, { ...deps, readPassPage: passPageReader(deps) });
  findPassRoutes(app, { db: deps.db, limits: deps.limits, onQueued: deps.onMailQueued });
  quarantineAdminRoutes(app, deps);
}
