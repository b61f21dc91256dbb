import { Route, Routes } from 'react-router';
import { GoLivePage } from './go-live-page.tsx';
import { ShowPicker } from './show-picker.tsx';
import './live.css';
import { StudioNotFound } from '../ui/studio-not-found.tsx';

/** The studio's go-live section: pick a show, then publish it, watch its health, go live, end. */
export default function LiveSection() {
  return (
    <Routes>
      <Route index element={<ShowPicker />} />
      <Route path=":showUid" element={<GoLivePage />} />
      <Route path="*" element={<StudioNotFound />} />
    </Routes>
  );
}
