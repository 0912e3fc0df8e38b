import { ContactSection } from '../features/contact/contact-section.tsx';
import { ShopFlow } from '../features/shop/shop-flow.tsx';
import { useShopConfig } from './shop-config.ts';

/** Route `/`: the shop's three-step flow, with the contact form on its landing screen. */
export function HomePage() {
  const { productName, feedbackUrl } = useShopConfig();
  return <ShopFlow productName={productName} feedbackUrl={feedbackUrl} landingFooter={<ContactSection />} />;
}
