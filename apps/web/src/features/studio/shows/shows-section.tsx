import { Route, Routes } from 'react-router';
import { CompetitionsPage } from './competitions-panel.tsx';
import { ShowEditorPage } from './show-editor.tsx';
import { ShowList } from './show-list.tsx';
import { ShowPreview } from './show-preview.tsx';
import './shows.css';

/**
 * The studio's shows: the list (upcoming, live, past, drafts), the editor of a new or existing
 * show, a show's competitions (all a moderator opens) and the staff preview of a draft.
 */
export default function ShowsSection() {
  return (
    <Routes>
      <Route index element={<ShowList />} />
      <Route path="new" element={<ShowEditorPage />} />
      <Route path=":showUid" element={<ShowEditorPage />} />
      <Route path=":showUid/competitions" element={<CompetitionsPage />} />
      <Route path=":showUid/preview" element={<ShowPreview />} />
    </Routes>
  );
}
