import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLoaderData } from 'react-router';
import type { PageData } from './placeholder-loaders.ts';

type Feature = 'accounts' | 'embedding';

/** The frame of a screen a later issue builds: its name, what it has loaded, and which issue brings it. */
function PlaceholderFrame({
  screen,
  feature,
  children,
}: {
  screen: string;
  feature: Feature;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <main className="text-page placeholder" data-placeholder={screen}>
      <h1>{t(`placeholder.screens.${screen}`)}</h1>
      {children}
      <p className="placeholder__notice">
        {t('placeholder.notice', { feature: t(`placeholder.features.${feature}`) })}
      </p>
      <Link to="/">{t('placeholder.back')}</Link>
    </main>
  );
}

function PagePlaceholder({ screen, feature }: { screen: string; feature: Feature }) {
  const data = useLoaderData() as PageData | undefined;
  return (
    <PlaceholderFrame screen={screen} feature={feature}>
      {data?.storeInfo && <p>{data.storeInfo.name}</p>}
    </PlaceholderFrame>
  );
}

export const ContactCapturePlaceholder = () => <PagePlaceholder screen="contactCapture" feature="accounts" />;
