import { ContactSection } from '../features/contact/contact-section.tsx';
import { ShopFlow } from '../features/shop/shop-flow.tsx';

/** Route `/`: the shop's landing and purchase form (`/?buy`), with the contact form on the landing; the confirmation is the pass's page. */
export function HomePage() {
  return <ShopFlow landingFooter={<ContactSection />} />;
}
