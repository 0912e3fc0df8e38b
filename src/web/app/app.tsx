import { QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from 'sonner';
import { queryClient } from '../lib/query-client.ts';
import { AppRoutes } from './router.tsx';
import { ShopConfigContext, type ShopConfig } from './shop-config.ts';
import { useToasterPlacement } from './toaster-placement.ts';

export function App({ config }: { config: ShopConfig }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ShopConfigContext value={config}>
        <AppRoutes />
        <Toaster richColors closeButton duration={4000} {...useToasterPlacement()} />
      </ShopConfigContext>
    </QueryClientProvider>
  );
}
