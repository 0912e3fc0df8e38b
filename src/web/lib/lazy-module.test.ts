import { describe, expect, it, vi } from 'vitest';
import { lazyModule } from './lazy-module.ts';

describe('lazyModule', () => {
  it('imports once however often it is asked', async () => {
    const importer = vi.fn(async () => ({ answer: 42 }));
    const module = lazyModule(importer);
    module.prefetch();
    const [a, b] = await Promise.all([module.load(), module.load()]);
    expect(a).toBe(b);
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('tries again after a failed load, and a failed prefetch throws nowhere', async () => {
    const importer = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue({ answer: 42 });
    const module = lazyModule(importer as () => Promise<{ answer: number }>);
    module.prefetch();
    await expect(module.load()).rejects.toThrow('offline');
    await expect(module.load()).resolves.toEqual({ answer: 42 });
    expect(importer).toHaveBeenCalledTimes(2);
  });
});
