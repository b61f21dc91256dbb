import { Route, Routes } from 'react-router';
import { ProductEditor } from './product-editor.tsx';
import { ProductImport } from './product-import.tsx';
import { ProductList } from './product-list.tsx';
import './catalogue.css';
import { StudioNotFound } from '../ui/studio-not-found.tsx';

/** The catalogue's screens under /studio/:pageUid/products: the list, the editor, the CSV import. */
export default function CatalogueSection() {
  return (
    <Routes>
      <Route index element={<ProductList />} />
      <Route path="new" element={<ProductEditor />} />
      <Route path="import" element={<ProductImport />} />
      <Route path=":productUid" element={<ProductEditor />} />
      <Route path="*" element={<StudioNotFound />} />
    </Routes>
  );
}
