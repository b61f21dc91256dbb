import { ShowReportPage } from './show-report.tsx';
import { StoreOverviewPage } from './store-overview.tsx';
import './analytics.css';
import { SectionRoutes } from '../ui/section-routes.tsx';

/** The analytics section: the store's shows side by side, and one show's report. */
export default function AnalyticsSection() {
  return <SectionRoutes index={<StoreOverviewPage />} paths={{ 'shows/:showUid': <ShowReportPage /> }} />;
}
