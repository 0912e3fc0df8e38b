import { beforeEach, describe, expect, it, vi } from 'vitest';

/** A stand-in for sonner's `toast`, recording what it was asked to show and dismiss. */
function fakeSonner() {
  const calls: unknown[][] = [];
  const record = (kind: string) => (...args: unknown[]) => {
    calls.push([kind, ...args]);
    return 'sonner-id';
  };
  const sonner = Object.assign(record('plain'), {
    success: record('success'),
    error: record('error'),
    warning: record('warning'),
    dismiss: record('dismiss'),
  });
  return { sonner: sonner as never, calls };
}

describe('toasts (sonner loaded with the first toast)', () => {
  let toasts: typeof import('./toasts.ts');
  beforeEach(async () => {
    vi.resetModules();
    toasts = await import('./toasts.ts');
  });

  it('shows the toasts asked for before sonner was up, in order, once it is, and dismisses by the ID it gave', () => {
    const { sonner, calls } = fakeSonner();
    const first = toasts.toast.error('Payment failed', { description: 'Card declined' });
    toasts.toast.dismiss(first);
    toasts.toast.success('Payment successful!');
    expect(calls).toEqual([]);
    toasts.toasterReady(sonner);
    expect(calls).toEqual([
      ['error', 'Payment failed', { description: 'Card declined', id: first }],
      ['dismiss', first],
      ['success', 'Payment successful!', { id: expect.any(String) }],
    ]);
    // Once up, a toast goes straight through.
    toasts.toast.warning('Offline');
    expect(calls.at(-1)).toEqual(['warning', 'Offline', { id: expect.any(String) }]);
  });

  it('keeps an ID given by the caller, and gives each toast its own otherwise', () => {
    expect(toasts.toast.success('a', { id: 'mine' })).toBe('mine');
    expect(toasts.toast.success('b')).not.toBe(toasts.toast.success('c'));
  });
});
