import { QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import type { ShopConfig } from '../core/shop-config.ts';
import { App } from './app/app.tsx';
import { RenderedModules } from './app/lazy-page.tsx';
import { shopConfigFrom } from './app/shop-config.ts';

export interface RenderedPage {
  /** The app's HTML for #root. */
  html: string;
  /** Source files of the pages loaded on demand that it used (keys of Vite's build manifest). */
  modules: string[];
}

/**
 * Renders a public page as the browser's first render will (built by `vite build --ssr` into
 * dist/ssr; ADR 0021). Waits for every page loaded on demand, so the HTML is whole. Nothing is
 * fetched: what the page reads from the API shows as loading, as it does before the first answer.
 */
export async function renderPage(path: string, config: ShopConfig): Promise<RenderedPage> {
  const modules = new Set<string>();
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <RenderedModules value={modules}>
        <App config={shopConfigFrom(config)} client={new QueryClient()} ssrPath={path} />
      </RenderedModules>
    </StrictMode>,
  );
  let html = '';
  for await (const chunk of prelude) html += String(chunk);
  return { html, modules: [...modules] };
}
