import { contactProblems } from '@vitrine/domain';
import type { ContactIncompleteError, StoreInfo } from '@vitrine/protocol';
import { CONTACT_PROBLEMS, type ContactProblem } from '@vitrine/protocol/vocabulary';
import { type FormEvent, useId, useState } from 'react';
import { Link, useLoaderData, useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api.ts';
import { logFailure } from '../../lib/debug.ts';
import { callAsViewer } from '../../lib/session.ts';
import { termsPath } from '../terms/terms-path.ts';
import { useInteractionTranslation } from './interaction-i18n.ts';
import { useViewer } from './use-viewer.ts';
import './interaction.css';

/**
 * The contact-capture page for social-live viewers (spec §2 /tiktok routes, §5 "Contact step"):
 * a phone number or an e-mail address, consent to the terms, and a name when the viewer has
 * none. The rules are checked here with the server's own (packages/domain contact-capture) and
 * again by the server, whose answer is shown the same way.
 */
export function ContactCapturePage() {
  const { t } = useInteractionTranslation();
  const { storeInfo } = useLoaderData() as { storeInfo: StoreInfo };
  const [params] = useSearchParams();
  const viewer = useViewer();
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [email, setEmail] = useState('');
  const [consent, setConsent] = useState(false);
  const [problems, setProblems] = useState<ContactProblem[]>([]);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const consentId = useId();
  // A named viewer (signed in, or named before) is not asked again.
  const needsName = !viewer || (viewer.isAnonymous && !viewer.name.trim());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setFailed(false);
    const found = contactProblems({ name, phone, email, consent }, needsName);
    setProblems(found);
    if (found.length > 0) return;
    setBusy(true);
    try {
      const campaignUid = params.get('campaign');
      await callAsViewer('captureContact', {
        pageUid: storeInfo.uid,
        ...(campaignUid ? { campaignUid } : {}),
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(phone.trim() ? { phone: phone.trim() } : {}),
        ...(email.trim() ? { email: email.trim() } : {}),
        consent,
      });
      setDone(true);
    } catch (error) {
      logFailure('storing the contact failed', error);
      const body = error instanceof ApiError ? (error.body as Partial<ContactIncompleteError> | null) : null;
      if (body?.error === 'contact_incomplete' && Array.isArray(body.problems)) setProblems(body.problems);
      else setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <main className="text-page account-page contact-page" data-page="contact-capture">
        <h1>{t('interaction.contact.doneTitle')}</h1>
        <p role="status">{t('interaction.contact.done', { store: storeInfo.name })}</p>
      </main>
    );
  }

  const shown = CONTACT_PROBLEMS.filter((key) => problems.includes(key));
  return (
    <main className="text-page account-page contact-page" data-page="contact-capture">
      <h1>{t('interaction.contact.title')}</h1>
      <p className="account-forms__lead">{t('interaction.contact.lead', { store: storeInfo.name })}</p>
      <form className="account-form" onSubmit={(event) => void submit(event)} noValidate>
        {needsName && (
          <ContactField
            label={t('interaction.account.name')}
            name="name"
            autoComplete="name"
            maxLength={60}
            value={name}
            invalid={problems.includes('name')}
            onChange={setName}
          />
        )}
        <ContactField
          label={t('interaction.contact.phone')}
          name="phone"
          type="tel"
          autoComplete="tel"
          maxLength={32}
          value={phone}
          invalid={problems.includes('phoneOrEmail')}
          onChange={setPhone}
        />
        <ContactField
          label={t('interaction.account.email')}
          name="email"
          type="email"
          autoComplete="email"
          maxLength={254}
          value={email}
          invalid={problems.includes('phoneOrEmail')}
          onChange={setEmail}
        />
        <div className="contact-consent">
          <input
            id={consentId}
            name="consent"
            type="checkbox"
            checked={consent}
            aria-invalid={problems.includes('consent') || undefined}
            onChange={(event) => setConsent(event.target.checked)}
          />
          <label htmlFor={consentId}>
            {t('interaction.contact.consent')}{' '}
            <Link to={termsPath(storeInfo.uid)}>{t('interaction.contact.terms')}</Link>
          </label>
        </div>
        {shown.length > 0 && (
          <ul className="chat-problem contact-problems" role="alert">
            {shown.map((key) => (
              <li key={key}>{t(`interaction.contact.problems.${key}`)}</li>
            ))}
          </ul>
        )}
        {failed && (
          <p className="chat-problem" role="alert">
            {t('interaction.account.errors.failed')}
          </p>
        )}
        <button type="submit" className="button account-form__submit" disabled={busy}>
          {t('interaction.contact.submit')}
        </button>
      </form>
    </main>
  );
}

/** One labelled text field of the form, marked invalid while the server's answer names it. */
function ContactField({
  label,
  name,
  type,
  autoComplete,
  maxLength,
  value,
  invalid,
  onChange,
}: {
  label: string;
  name: string;
  type?: 'tel' | 'email';
  autoComplete: string;
  maxLength: number;
  value: string;
  invalid: boolean;
  onChange(value: string): void;
}) {
  const id = useId();
  return (
    <div className="account-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        maxLength={maxLength}
        value={value}
        aria-invalid={invalid || undefined}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
