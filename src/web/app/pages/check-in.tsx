import { CheckInPage } from '../../features/check-in/check-in-page.tsx';
import { ProtectedRoute } from '../protected-route.tsx';
import { useShopConfig } from '../shop-config.ts';

/** `/check-in`: the door's check-in screen behind the admin guard. Loaded on demand with its page. */
export default function CheckInRoute() {
  const { timeZone } = useShopConfig();
  return (
    <ProtectedRoute requireAdmin>
      <CheckInPage timeZone={timeZone} />
    </ProtectedRoute>
  );
}
