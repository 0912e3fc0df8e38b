import * as auth from './auth.ts';
import * as backOffice from './back-office.ts';
import * as buyerData from './buyer-data.ts';
import * as checkIn from './check-in.ts';
import type { Endpoint } from './contract.ts';
import * as door from './door.ts';
import * as events from './events.ts';
import * as findPass from './find-pass.ts';
import * as mail from './mail.ts';
import * as passPage from './pass-page.ts';
import * as platform from './platform.ts';
import * as purchases from './purchases.ts';
import * as sales from './sales.ts';
import * as staff from './staff.ts';
import * as wallet from './wallet.ts';

const isEndpoint = (value: unknown): value is Endpoint =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'success' in value;

/** Every endpoint of the API: the server registers each, and a test checks no route is left without one. */
export const ENDPOINTS: readonly Endpoint[] = [auth, backOffice, buyerData, checkIn, door, events, findPass, mail, passPage, platform, purchases, sales, staff, wallet].flatMap((module) =>
  Object.values(module).filter(isEndpoint),
);
