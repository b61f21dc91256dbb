import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLoaderData, useMatches, useParams } from 'react-router';
import type { CampaignData, PageData } from './placeholder-loaders.ts';

type Feature = 'checkout' | 'accounts' | 'embedding';

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

function CampaignCheckoutPlaceholder({ screen }: { screen: string }) {
  const { events } = useLoaderData() as CampaignData;
  const { checkoutUid } = useParams();
  const { t } = useTranslation();
  return (
    <PlaceholderFrame screen={screen} feature="checkout">
      <p>{t('placeholder.campaign', { name: events[0]?.event.eventName ?? '' })}</p>
      {checkoutUid && <p>{t('placeholder.checkoutRef', { uid: checkoutUid })}</p>}
    </PlaceholderFrame>
  );
}

/** One-page checkout with its choose / confirm / success steps as child routes. */
export function CheckoutPlaceholder() {
  const step = useMatches().at(-1)?.handle as { step?: string } | undefined;
  return (
    <div data-checkout-step={step?.step ?? 'choose'}>
      <CampaignCheckoutPlaceholder screen="checkout" />
    </div>
  );
}

export const CreateCheckoutPlaceholder = () => <CampaignCheckoutPlaceholder screen="createCheckout" />;
export const CheckoutLocationPlaceholder = () => <CampaignCheckoutPlaceholder screen="checkoutLocation" />;

export function CheckoutOptionsPlaceholder({ fixedPageId }: { fixedPageId?: string }) {
  return (
    <div data-fixed-page-id={fixedPageId}>
      <CampaignCheckoutPlaceholder screen="checkoutOptions" />
    </div>
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

export const CheckoutErrorPlaceholder = () => <PagePlaceholder screen="checkoutError" feature="checkout" />;
export const ContactCapturePlaceholder = () => <PagePlaceholder screen="contactCapture" feature="accounts" />;
export const LoginPlaceholder = () => <PagePlaceholder screen="login" feature="accounts" />;
