import { useMemo } from 'react';
import { RouterProvider } from 'react-router/dom';
import { Toaster } from 'sonner';
import { createAppRouter } from './router.tsx';
import { ShopConfigContext, type ShopConfig } from './shop-config.ts';

export function App({ config }: { config: ShopConfig }) {
  const router = useMemo(() => createAppRouter(), []);
  return (
    <ShopConfigContext value={config}>
      <RouterProvider router={router} />
      <Toaster richColors closeButton position="top-center" />
    </ShopConfigContext>
  );
}
