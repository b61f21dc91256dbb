import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { StudioLoading } from '../ui/studio-loading.tsx';
import { CompetitionsPage } from './competitions-panel.tsx';
import { ShowEditorPage } from './show-editor.tsx';
import { ShowList } from './show-list.tsx';
import { ShowPreview } from './show-preview.tsx';
import './shows.css';
import { StudioNotFound } from '../ui/studio-not-found.tsx';

/** The control room loads with its page: the preview's player and the room's parts are its own. */
const ControlRoomPage = lazy(() => import('../control-room/control-room-page.tsx'));

/**
 * The studio's shows: the list (upcoming, live, past, drafts), the editor of a new or existing
 * show, a show's competitions (all a moderator opens), the staff preview of a draft and a live
 * show's control room (hosts and moderators).
 */
export default function ShowsSection() {
  return (
    <Routes>
      <Route index element={<ShowList />} />
      <Route path="new" element={<ShowEditorPage />} />
      <Route path=":showUid" element={<ShowEditorPage />} />
      <Route path=":showUid/competitions" element={<CompetitionsPage />} />
      <Route path=":showUid/preview" element={<ShowPreview />} />
      <Route
        path=":showUid/control-room"
        element={
          <Suspense fallback={<StudioLoading />}>
            <ControlRoomPage />
          </Suspense>
        }
      />
      <Route path="*" element={<StudioNotFound />} />
    </Routes>
  );
}
