import { EventPassPage } from '../../features/event-pass/event-pass-page.tsx';
import { useShopConfig } from '../shop-config.ts';

/** `/events/:id`: the public event-specific purchase view. Loaded on demand with its page. */
export default function EventPassRoute() {
  const { productName } = useShopConfig();
  return <EventPassPage productName={productName} />;
}
