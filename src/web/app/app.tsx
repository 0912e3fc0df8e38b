import { QueryClientProvider } from '@tanstack/react-query';
import { useMemo } from 'react';
import { RouterProvider } from 'react-router/dom';
import { Toaster } from 'sonner';
import { queryClient } from '../lib/query-client.ts';
import { createAppRouter } from './router.tsx';
import { ShopConfigContext, type ShopConfig } from './shop-config.ts';

export function App({ config }: { config: ShopConfig }) {
  const router = useMemo(() => createAppRouter(), []);
  return (
    <QueryClientProvider client={queryClient}>
      <ShopConfigContext value={config}>
        <RouterProvider router={router} />
        <Toaster richColors closeButton position="top-center" />
      </ShopConfigContext>
    </QueryClientProvider>
  );
}
