import { SectionRoutes } from '../ui/section-routes.tsx';
import { OrderDetailPage } from './order-detail.tsx';
import { OrdersListPage } from './orders-list.tsx';

/** The orders section: the list (with filters, search, paging and export) and one order's page. */
export default function OrdersSection() {
  return <SectionRoutes index={<OrdersListPage />} paths={{ ':checkoutUid': <OrderDetailPage /> }} />;
}
