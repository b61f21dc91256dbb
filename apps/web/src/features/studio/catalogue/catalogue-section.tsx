import { ProductEditor } from './product-editor.tsx';
import { ProductImport } from './product-import.tsx';
import { ProductList } from './product-list.tsx';
import './catalogue.css';
import { SectionRoutes } from '../ui/section-routes.tsx';

/** The catalogue's screens under /studio/:pageUid/products: the list, the editor, the CSV import. */
export default function CatalogueSection() {
  return (
    <SectionRoutes
      index={<ProductList />}
      paths={{ new: <ProductEditor />, import: <ProductImport />, ':productUid': <ProductEditor /> }}
    />
  );
}
