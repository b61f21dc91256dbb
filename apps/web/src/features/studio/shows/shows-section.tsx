import { lazy, Suspense } from 'react';
import { StudioLoading } from '../ui/studio-loading.tsx';
import { CompetitionsPage } from './competitions-panel.tsx';
import { ShowEditorPage } from './show-editor.tsx';
import { ShowList } from './show-list.tsx';
import { ShowPreview } from './show-preview.tsx';
import './shows.css';
import { SectionRoutes } from '../ui/section-routes.tsx';

/** The control room loads with its page: the preview's player and the room's parts are its own. */
const ControlRoomPage = lazy(() => import('../control-room/control-room-page.tsx'));

/**
 * The studio's shows: the list (upcoming, live, past, drafts), the editor of a new or existing
 * show, a show's competitions (all a moderator opens), the staff preview of a draft and a live
 * show's control room (hosts and moderators).
 */
export default function ShowsSection() {
  return (
    <SectionRoutes
      index={<ShowList />}
      paths={{
        new: <ShowEditorPage />,
        ':showUid': <ShowEditorPage />,
        ':showUid/competitions': <CompetitionsPage />,
        ':showUid/preview': <ShowPreview />,
        ':showUid/control-room': (
          <Suspense fallback={<StudioLoading />}>
            <ControlRoomPage />
          </Suspense>
        ),
      }}
    />
  );
}
