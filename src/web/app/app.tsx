import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ShopConfig } from '../../core/shop-config.ts';
import { AppRoutes } from './router.tsx';
import { ShopConfigContext } from './shop-config.ts';
import { Notifications } from './notifications.tsx';

/** The whole app, in the browser (main.tsx) and on the server (render-page.tsx). */
export function App({ config, client, ssrPath }: { config: ShopConfig; client: QueryClient; ssrPath?: string }) {
  return (
    <QueryClientProvider client={client}>
      <ShopConfigContext value={config}>
        <AppRoutes ssrPath={ssrPath} />
        <Notifications />
      </ShopConfigContext>
    </QueryClientProvider>
  );
}
