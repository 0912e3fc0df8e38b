import { describe, expect, it } from 'vitest';
import { listPurchases } from '../../../../core/api/staff.ts';
import { call } from '../../../lib/api-client.ts';
import { purchasePageQuery } from './purchases-api.ts';

describe('the purchase list query', () => {
  it('asks for a page with the search and the cursor', async () => {
    let asked = '';
    const capture = async (url: RequestInfo | URL) => {
      asked = String(url);
      return new Response(JSON.stringify({ items: [], nextCursor: null }));
    };
    await call(listPurchases, { query: purchasePageQuery(' ada & co ', 'abc') }, { fetch: capture });
    expect(asked).toBe('/api/admin/purchases?limit=50&cursor=abc&q=ada+%26+co');
  });
});
