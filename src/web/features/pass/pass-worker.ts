import { useEffect } from 'react';
import { passPageUrl } from './pass-api.ts';

/** Written by the build (vite.config.ts, ADR 0026). */
const WORKER_URL = '/pass-sw.js';
const WORKER_SCOPE = '/pass/';

/**
 * Installs the pass pages' service worker (scope /pass/ only: the shop's other pages stay
 * uncontrolled) so the page opens again with no network. On the first visit the page loaded before
 * the worker, so once it takes control the page asks for itself and its pass again, through the
 * worker, which keeps both.
 */
export function usePassWorker(code: string) {
  useEffect(() => {
    const workers = navigator.serviceWorker;
    if (!workers || import.meta.env.DEV) return;
    const keep = () => {
      for (const url of [window.location.pathname, passPageUrl(code)]) {
        void fetch(url, { credentials: 'same-origin' }).catch(() => undefined);
      }
    };
    workers.register(WORKER_URL, { scope: WORKER_SCOPE }).catch(() => undefined);
    workers.addEventListener('controllerchange', keep);
    return () => workers.removeEventListener('controllerchange', keep);
  }, [code]);
}
