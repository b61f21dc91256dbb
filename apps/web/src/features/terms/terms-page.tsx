import type { StoreInfo } from '@vitrine/protocol';
import { useTranslation } from 'react-i18next';
import { Link, type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { loadStoreInfo } from '../../lib/api.ts';
import { rethrowAsNotFound } from '../../lib/loader-errors.ts';
import { storeFrontPath, termsStoreOf } from './terms-path.ts';

/** The terms of the store the address names (`/terms?store=…`), the default store's without one. */
export const termsLoader = ({ request }: LoaderFunctionArgs) =>
  loadStoreInfo(termsStoreOf(new URL(request.url))).catch(rethrowAsNotFound);

/** The store's terms and conditions, as plain text paragraphs. */
export function TermsPage() {
  const storeInfo = useLoaderData() as StoreInfo;
  const { t } = useTranslation();
  const paragraphs = storeInfo.terms.split(/\n\s*\n/).filter((paragraph) => paragraph.trim());
  return (
    <main className="text-page" data-page="terms">
      <Link to={storeFrontPath(storeInfo.uid)}>← {storeInfo.name}</Link>
      <h1>{t('terms.title')}</h1>
      {paragraphs.length === 0 ? (
        <p>{t('terms.none')}</p>
      ) : (
        paragraphs.map((text) => <p key={text}>{text}</p>)
      )}
    </main>
  );
}
