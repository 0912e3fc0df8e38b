import { CheckInPage } from '../../features/check-in/check-in-page.tsx';
import { ProtectedRoute } from '../protected-route.tsx';
import { useShopConfig } from '../shop-config.ts';

/** `/check-in`: the door's check-in screen behind the door guard (door staff and admins). Loaded on demand with its page. */
export default function CheckInRoute() {
  const { timeZone } = useShopConfig();
  return (
    <ProtectedRoute require="door">
      <CheckInPage timeZone={timeZone} />
    </ProtectedRoute>
  );
}
