import { Route, Routes } from 'react-router';
import { ShowReportPage } from './show-report.tsx';
import { StoreOverviewPage } from './store-overview.tsx';
import './analytics.css';
import { StudioNotFound } from '../ui/studio-not-found.tsx';

/** The analytics section: the store's shows side by side, and one show's report. */
export default function AnalyticsSection() {
  return (
    <Routes>
      <Route index element={<StoreOverviewPage />} />
      <Route path="shows/:showUid" element={<ShowReportPage />} />
      <Route path="*" element={<StudioNotFound />} />
    </Routes>
  );
}
