import { PassPage } from '../../features/pass/pass-page.tsx';
import { useShopConfig } from '../shop-config.ts';

/** `/pass/:code`: a pass's own page (its QR code's link), and the home flow's confirmation. Loaded on demand. */
export default function PassRoute() {
  const { productName, feedbackUrl } = useShopConfig();
  return <PassPage productName={productName} feedbackUrl={feedbackUrl} />;
}
