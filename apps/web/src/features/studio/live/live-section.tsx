import { GoLivePage } from './go-live-page.tsx';
import { ShowPicker } from './show-picker.tsx';
import './live.css';
import { SectionRoutes } from '../ui/section-routes.tsx';

/** The studio's go-live section: pick a show, then publish it, watch its health, go live, end. */
export default function LiveSection() {
  return <SectionRoutes index={<ShowPicker />} paths={{ ':showUid': <GoLivePage /> }} />;
}
