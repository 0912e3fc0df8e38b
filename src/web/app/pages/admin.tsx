import { AdminPage } from '../../features/admin/admin-page.tsx';
import { ProtectedRoute } from '../protected-route.tsx';
import { useShopConfig } from '../shop-config.ts';

/** `/admin`: the admin panel behind the admin guard. Loaded on demand with its page. */
export default function AdminRoute() {
  const { productName } = useShopConfig();
  return (
    <ProtectedRoute require="admin">
      <AdminPage productName={productName} />
    </ProtectedRoute>
  );
}
