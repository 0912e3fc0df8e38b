import { useSyncExternalStore } from 'react';
import type { ExternalToast, toast as sonnerToast } from 'sonner';

type Sonner = typeof sonnerToast;
type ToastId = string | number;

/**
 * The app's toasts, with sonner's API. sonner (and its Toaster) loads with the first toast, not on
 * the buyer's first load (ADR 0021): a toast asked for before then is shown once the Toaster is up.
 */
let shown: Sonner | undefined;
const queued: ((sonner: Sonner) => void)[] = [];
let wanted = false;
const listeners = new Set<() => void>();
let nextId = 0;

function withSonner(show: (sonner: Sonner) => void): void {
  if (shown) return show(shown);
  queued.push(show);
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
}

function show(kind: 'success' | 'error' | 'warning', title: string, options?: ExternalToast): ToastId {
  // Our own ID, so a toast still waiting for sonner can be dismissed too.
  const id = options?.id ?? `toast-${++nextId}`;
  withSonner((sonner) => sonner[kind](title, { ...options, id }));
  return id;
}

export const toast = {
  success: (title: string, options?: ExternalToast) => show('success', title, options),
  error: (title: string, options?: ExternalToast) => show('error', title, options),
  warning: (title: string, options?: ExternalToast) => show('warning', title, options),
  dismiss: (id?: ToastId) => withSonner((sonner) => sonner.dismiss(id)),
};

/** Whether any toast was asked for: the app mounts the Toaster from then on. */
export function useToastsWanted(): boolean {
  return useSyncExternalStore(
    (changed) => {
      listeners.add(changed);
      return () => listeners.delete(changed);
    },
    () => wanted,
    () => false,
  );
}

/** Called by the mounted Toaster: shows what waited for it. */
export function toasterReady(sonner: Sonner): void {
  shown = sonner;
  for (const waiting of queued.splice(0)) waiting(sonner);
}

export type { ExternalToast };
