import { useCallback, useSyncExternalStore } from 'react';
import { useLocation } from 'wouter';
import { codeInLink, passPagePath } from '../../core/pass-code-format.ts';
import type { PassPage } from '../../core/api/pass-page.ts';
import type { Pass } from '../../core/purchase.ts';

/**
 * A pass as this browser bought it: the purchase's answer (the email included, which the pass
 * page's API leaves out) and the signed link its QR code carries.
 */
export interface SoldPass {
  pass: Pass;
  passUrl: string;
  /** An event's own pass (bought on its page): the event's date and venue, as the pass page's API gives them. */
  event?: PassPage['event'];
}

const PREFIX = 'skippass:pass:';

/** Written when storage is refused (a private window, a full quota): the pass still shows in this tab. */
const inMemory = new Map<string, string>();
const listeners = new Set<() => void>();

function read(code: string): string | null {
  try {
    return window.localStorage.getItem(PREFIX + code) ?? inMemory.get(code) ?? null;
  } catch {
    return inMemory.get(code) ?? null;
  }
}

/**
 * Keeps a purchase's answer in the browser, keyed by its signed code, so its page shows at once
 * (and a pass still waiting in the server's spool shows before the server can read it back).
 */
export function keepPass(code: string, kept: SoldPass): void {
  const text = JSON.stringify(kept);
  inMemory.set(code, text);
  try {
    window.localStorage.setItem(PREFIX + code, text);
  } catch {
    // The in-memory copy serves this tab; the server's answer serves any other.
  }
  for (const listener of listeners) listener();
}

function isSoldPass(value: unknown): value is SoldPass {
  if (typeof value !== 'object' || value === null) return false;
  const { pass, passUrl } = value as Partial<SoldPass>;
  return typeof passUrl === 'string' && typeof pass === 'object' && pass !== null && typeof pass.id === 'string' && typeof pass.name === 'string';
}

// One parsed object per stored text: useSyncExternalStore needs the same snapshot until it changes.
let lastText: string | null = null;
let lastParsed: SoldPass | null = null;

function parse(text: string | null): SoldPass | null {
  if (text === lastText) return lastParsed;
  lastText = text;
  try {
    const value: unknown = text === null ? null : JSON.parse(text);
    lastParsed = isSoldPass(value) ? value : null;
  } catch {
    lastParsed = null;
  }
  return lastParsed;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab of the shop bought or kept a pass.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/**
 * The pass this browser kept for a code, or null. Null on the server and during hydration too, as
 * the server rendered it: the kept pass appears right after.
 */
export function useKeptPass(code: string): SoldPass | null {
  return useSyncExternalStore(
    subscribe,
    () => parse(read(code)),
    () => null,
  );
}

/**
 * What a purchase form (the home flow's, an event page's) does with a paid purchase: keeps its
 * answer, then replaces the form's history entry with the pass's page. Back from the pass is the
 * screen before the form, never a filled-in form; a reload shows the same pass.
 */
export function useShowBoughtPass(): (sold: SoldPass) => void {
  const [, navigate] = useLocation();
  return useCallback(
    (sold: SoldPass) => {
      const code = codeInLink(new URL(sold.passUrl, window.location.origin)) ?? sold.pass.id;
      keepPass(code, sold);
      navigate(passPagePath(code), { replace: true });
    },
    [navigate],
  );
}
