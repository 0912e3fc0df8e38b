import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { refreshAdmin } from './admin-api.ts';

describe('Refresh', () => {
  it('starts each paged list again at its first page and reads every admin query again', () => {
    const client = new QueryClient();
    client.setQueryData(['admin', 'purchases', ''], { pages: ['first', 'second'], pageParams: [null, 'c2'] });
    client.setQueryData(['admin', 'stats'], { totalPurchases: 2 });
    client.setQueryData(['session'], { status: 'ready' });
    refreshAdmin(client);
    expect(client.getQueryData(['admin', 'purchases', ''])).toEqual({ pages: ['first'], pageParams: [null] });
    expect(client.getQueryData(['admin', 'stats'])).toEqual({ totalPurchases: 2 });
    expect(client.getQueryState(['admin', 'stats'])?.isInvalidated).toBe(true);
    expect(client.getQueryState(['session'])?.isInvalidated).toBe(false);
  });
});
