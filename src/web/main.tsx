import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { readShopConfig } from './app/shop-config.ts';
import { queryClient } from './lib/query-client.ts';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const app = (
  <StrictMode>
    <App config={readShopConfig()} client={queryClient} ssrPath={window.location.pathname} />
  </StrictMode>
);

// Public pages come rendered by the server (ADR 0021): React takes over what is on screen. Staff
// pages (and the dev server) send an empty #root, which the app renders into.
if (container.firstElementChild) hydrateRoot(container, app);
else createRoot(container).render(app);
