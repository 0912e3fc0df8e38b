import { describe, expect, it } from 'vitest';
import { startTestApp } from '../test-support/test-app.ts';
import { testBackends } from '../test-support/test-databases.ts';

describe.each(testBackends())('GET /healthz on $name', (backend) => {
  it('answers 200 while the database answers, and 503 once it does not', async () => {
    const database = await backend.open();
    const shop = await startTestApp(database);
    try {
      const up = await shop.app.inject({ method: 'GET', url: '/healthz' });
      expect(up.statusCode).toBe(200);
      expect(up.json()).toEqual({ status: 'ok', database: 'up', spooled: 0, quarantined: 0, spoolWritable: true });

      await database.close();
      const down = await shop.app.inject({ method: 'GET', url: '/healthz' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ status: 'unavailable', database: 'down', spooled: 0, quarantined: 0, spoolWritable: true });
    } finally {
      await shop.close();
    }
  });
});
