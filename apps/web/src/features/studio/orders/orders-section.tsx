import { SectionPlaceholder } from '../ui/section-placeholder.tsx';

/** The section's screens (its own descendant routes); a placeholder until they are built. */
export default function OrdersSection() {
  return <SectionPlaceholder titleKey="nav.orders" />;
}
