import { hasOwnerSettings, type StudioStoreSettings } from '@vitrine/protocol';
import { useEffect, useState } from 'react';
import { useRoleIncludes, useStudioSession, useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { StudioPageLoading } from '../ui/studio-loading.tsx';
import { StudioPage } from '../ui/studio-page.tsx';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';
import { MailDeliveryCard } from './mail-delivery-card.tsx';
import { PlayerSettingsForm } from './player-settings-form.tsx';
import './settings.css';
import { PickupStoresForm, ShippingForm } from './shipping-forms.tsx';
import { EmbeddingForm, SalesForm, StoreInfoForm, TermsForm, TimeZoneForm } from './store-info-forms.tsx';

/** The sections of the settings screen, in order, with the anchor each card has. */
const SECTIONS = [
  'info',
  'terms',
  'branding',
  'embedding',
  'sales',
  'shipping',
  'pickup',
  'time-zone',
  'mail',
] as const;
/**
 * The sections a host does not see: the sales and shipping settings (README: hosts do not handle
 * payment settings) and mail delivery (it lists shoppers' addresses).
 */
const OWNER_SECTIONS: readonly string[] = ['embedding', 'sales', 'shipping', 'pickup', 'mail'];

/**
 * The store's settings: one card per section, each saved on its own. Hosts change the store's
 * face (info, terms, branding, player, time zone); money and embedding are the owner's, which a
 * host neither reads nor changes (README: hosts do not handle payment settings).
 */
export default function SettingsSection() {
  const { t } = useStudioTranslation('studio-settings');
  const store = useStudioStore();
  const { reloadSession } = useStudioSession();
  const isOwner = useRoleIncludes('owner');
  const query = useStaffQuery('getStoreSettings', { params: { pageUid: store.pageUid } });
  const [settings, setSettings] = useState<StudioStoreSettings | null>(null);
  useEffect(() => setSettings(query.data), [query.data]);

  if (!settings)
    return (
      <StudioPageLoading
        title={t('title')}
        failure={query.error ? refusalText(query.error, t('loadFailed')) : null}
      />
    );
  const onSaved = (next: StudioStoreSettings) => {
    // The header shows the store's name and logo from the studio session.
    if (next.info.name !== settings.info.name || next.logo !== settings.logo) reloadSession();
    setSettings(next);
  };
  const props = { pageUid: store.pageUid, settings, onSaved };
  return (
    <StudioPage title={t('title')}>
      <nav className="settings-nav" aria-label={t('sectionsLabel')}>
        <ul>
          {SECTIONS.filter((section) => isOwner || !OWNER_SECTIONS.includes(section)).map((section) => (
            <li key={section}>
              <a href={`#${section}`}>{t(`nav.${section}`)}</a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="settings-stack">
        <StoreInfoForm {...props} canSave />
        <TermsForm {...props} canSave />
        <PlayerSettingsForm {...props} canSave />
        {isOwner && hasOwnerSettings(settings) ? (
          <>
            <EmbeddingForm {...props} settings={settings} canSave />
            <SalesForm {...props} settings={settings} canSave />
            {/* Keyed by the currencies sold: a change of them redraws the price columns. */}
            <ShippingForm key={settings.sales.currencies.join()} {...props} settings={settings} canSave />
            <PickupStoresForm {...props} settings={settings} canSave />
          </>
        ) : (
          <p className="studio-notice" data-testid="owner-settings-note">
            {t('ownerSections')}
          </p>
        )}
        <TimeZoneForm {...props} canSave />
        {isOwner && <MailDeliveryCard pageUid={store.pageUid} />}
      </div>
    </StudioPage>
  );
}
