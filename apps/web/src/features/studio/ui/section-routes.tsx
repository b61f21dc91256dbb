import type { ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { StudioNotFound } from './studio-not-found.tsx';

/**
 * A studio section's screens: its `index` screen, the screens at `paths` (relative to the
 * section's own path), and the studio's "not found" at any other path.
 */
export function SectionRoutes({ index, paths }: { index: ReactNode; paths: Record<string, ReactNode> }) {
  return (
    <Routes>
      <Route index element={index} />
      {Object.entries(paths).map(([path, element]) => (
        <Route key={path} path={path} element={element} />
      ))}
      <Route path="*" element={<StudioNotFound />} />
    </Routes>
  );
}
