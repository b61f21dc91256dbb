import { Route, Routes } from 'react-router';
import { StudioNotFound } from '../ui/studio-not-found.tsx';
import { OrderDetailPage } from './order-detail.tsx';
import { OrdersListPage } from './orders-list.tsx';

/** The orders section: the list (with filters, search, paging and export) and one order's page. */
export default function OrdersSection() {
  return (
    <Routes>
      <Route index element={<OrdersListPage />} />
      <Route path=":checkoutUid" element={<OrderDetailPage />} />
      <Route path="*" element={<StudioNotFound />} />
    </Routes>
  );
}
