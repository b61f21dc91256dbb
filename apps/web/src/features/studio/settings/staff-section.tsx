import { zodResolver } from '@hookform/resolvers/zod';
import { STAFF_ROLES } from '@vitrine/domain';
import { type StaffRole, staffCalls } from '@vitrine/protocol';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { useLocale } from '../../../lib/use-locale.ts';
import { staffCall } from '../studio-api.ts';
import { useStudioSession, useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { DataTable } from '../ui/data-table.tsx';
import { FormField } from '../ui/form-field.tsx';
import { StudioPageLoading } from '../ui/studio-loading.tsx';
import { StudioPage } from '../ui/studio-page.tsx';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';
import './settings.css';

const InviteRequest = staffCalls.inviteStaff.request;
type InviteInput = z.input<typeof InviteRequest>;

/**
 * The store's staff (owners only): members with their role (changed in place), removal after a
 * confirmation, invitations by e-mail whose link is shown to hand over another way too, and every
 * open invitation with resend (a new link, shown too) and revoke. The last owner cannot be demoted or removed (the server says so).
 */
export default function StaffSection() {
  const { t } = useStudioTranslation('studio-settings');
  const store = useStudioStore();
  const { session } = useStudioSession();
  const { dateTime } = useLocale();
  const params = { pageUid: store.pageUid };
  const staff = useStaffQuery('listStaff', { params });
  const [notice, setNotice] = useState<{ error: boolean; text: string } | null>(null);
  const [invited, setInvited] = useState<{ email: string; url: string } | null>(null);
  const [resent, setResent] = useState<{ email: string; url: string } | null>(null);
  const form = useForm<InviteInput, unknown, z.output<typeof InviteRequest>>({
    resolver: zodResolver(InviteRequest),
    defaultValues: { email: '', role: 'host' },
  });

  const act = async (work: () => Promise<unknown>, done: string) => {
    setNotice(null);
    try {
      await work();
      setNotice({ error: false, text: done });
      staff.reload();
    } catch (error) {
      setNotice({ error: true, text: refusalText(error, t('staff.failed')) });
    }
  };
  const invite = form.handleSubmit(async (body) => {
    setNotice(null);
    try {
      const answer = await staffCall('inviteStaff', { params, body });
      setInvited({ email: answer.invitation.email, url: answer.acceptUrl });
      form.reset({ email: '', role: body.role });
      staff.reload();
    } catch (error) {
      setNotice({ error: true, text: refusalText(error, t('staff.failed')) });
    }
  });
  const resend = async (invitationUid: string) => {
    setNotice(null);
    try {
      const answer = await staffCall('resendInvitation', { params: { ...params, invitationUid } });
      setResent({ email: answer.invitation.email, url: answer.acceptUrl });
      staff.reload();
    } catch (error) {
      setNotice({ error: true, text: refusalText(error, t('staff.failed')) });
    }
  };
  const roleName = (role: StaffRole) => t(`studio:roles.${role}`);

  if (!staff.data)
    return (
      <StudioPageLoading
        title={t('staff.title')}
        failure={staff.error ? refusalText(staff.error, t('loadFailed')) : null}
      />
    );
  const { members, invitations } = staff.data;
  const actionsHeader = <span className="visually-hidden">{t('staff.actions')}</span>;
  return (
    <StudioPage title={t('staff.title')}>
      <p className="studio-muted">{t('staff.roles')}</p>
      <div aria-live="polite">
        {notice && (
          <p
            role={notice.error ? 'alert' : 'status'}
            className={`studio-notice studio-notice--${notice.error ? 'error' : 'success'}`}
          >
            {notice.text}
          </p>
        )}
      </div>
      <section className="studio-card" aria-labelledby="members-title">
        <h2 id="members-title" className="settings-card__title">
          {t('staff.members')}
        </h2>
        <div className="studio-table-wrap">
          <DataTable
            columns={[
              {
                header: t('staff.name'),
                cell: (member) => (
                  <>
                    {member.name || '—'}
                    {member.userUid === session.user.uid && (
                      <span className="studio-muted"> ({t('staff.you')})</span>
                    )}
                  </>
                ),
              },
              { header: t('staff.email'), cell: (member) => member.email ?? '—' },
              {
                header: t('staff.role'),
                cell: (member) => (
                  <select
                    className="studio-input"
                    aria-label={t('staff.roleOf', { name: member.name || member.email || '' })}
                    value={member.role}
                    onChange={(event) =>
                      void act(
                        () =>
                          staffCall('changeStaffRole', {
                            params: { ...params, userUid: member.userUid },
                            body: { role: event.target.value as StaffRole },
                          }),
                        t('staff.roleChanged', {
                          name: member.name,
                          role: roleName(event.target.value as StaffRole),
                        }),
                      )
                    }
                  >
                    {STAFF_ROLES.map((role) => (
                      <option key={role} value={role}>
                        {roleName(role)}
                      </option>
                    ))}
                  </select>
                ),
              },
              { header: t('staff.added'), cell: (member) => dateTime(member.addedAt) },
              {
                header: actionsHeader,
                cell: (member) => (
                  <ConfirmButton
                    title={t('staff.removeTitle', { name: member.name || member.email || '' })}
                    message={t('staff.removeMessage', { store: store.name })}
                    confirmLabel={t('staff.remove')}
                    onConfirm={async () => {
                      await staffCall('removeStaff', { params: { ...params, userUid: member.userUid } });
                      setNotice({ error: false, text: t('staff.removed', { name: member.name }) });
                      staff.reload();
                    }}
                  >
                    {t('staff.remove')}
                  </ConfirmButton>
                ),
              },
            ]}
            rows={members}
            rowKey={(member) => member.userUid}
          />
        </div>
      </section>

      <form className="studio-card" onSubmit={invite} noValidate aria-labelledby="invite-title">
        <h2 id="invite-title" className="settings-card__title">
          {t('staff.invite')}
        </h2>
        <p className="studio-muted">{t('staff.inviteHelp')}</p>
        <div className="staff-invite">
          <FormField label={t('staff.email')} error={form.formState.errors.email?.message}>
            {(props) => (
              <input {...props} type="email" className="studio-input" {...form.register('email')} />
            )}
          </FormField>
          <FormField label={t('staff.role')} error={form.formState.errors.role?.message}>
            {(props) => (
              <select {...props} className="studio-input" {...form.register('role')}>
                {STAFF_ROLES.map((role) => (
                  <option key={role} value={role}>
                    {roleName(role)}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <button
            type="submit"
            className="studio-button studio-button--primary"
            disabled={form.formState.isSubmitting}
          >
            {t('staff.sendInvitation')}
          </button>
        </div>
        {invited && <InvitationLink text={t('staff.invited', { email: invited.email })} url={invited.url} />}
      </form>

      <section className="studio-card" aria-labelledby="invitations-title">
        <h2 id="invitations-title" className="settings-card__title">
          {t('staff.openInvitations')}
        </h2>
        {invitations.length === 0 ? (
          <p className="studio-muted">{t('staff.noInvitations')}</p>
        ) : (
          <div className="studio-table-wrap">
            <DataTable
              columns={[
                { header: t('staff.email'), cell: (invitation) => invitation.email },
                { header: t('staff.role'), cell: (invitation) => roleName(invitation.role) },
                { header: t('staff.invitedBy'), cell: (invitation) => invitation.invitedBy || '—' },
                { header: t('staff.expires'), cell: (invitation) => dateTime(invitation.expiresAt) },
                {
                  header: actionsHeader,
                  cell: (invitation) => (
                    <div className="staff-invitation-actions">
                      <button
                        type="button"
                        className="studio-button"
                        onClick={() => void resend(invitation.uid)}
                      >
                        {t('staff.resend')}
                        {/* Which invitation, for screen readers; the visible text starts the name. */}
                        <span className="visually-hidden"> {invitation.email}</span>
                      </button>
                      <ConfirmButton
                        title={t('staff.revokeTitle', { email: invitation.email })}
                        message={t('staff.revokeMessage')}
                        confirmLabel={t('staff.revoke')}
                        onConfirm={async () => {
                          await staffCall('revokeInvitation', {
                            params: { ...params, invitationUid: invitation.uid },
                          });
                          setNotice({ error: false, text: t('staff.revoked', { email: invitation.email }) });
                          staff.reload();
                        }}
                      >
                        {t('staff.revoke')}
                      </ConfirmButton>
                    </div>
                  ),
                },
              ]}
              rows={invitations}
              rowKey={(invitation) => invitation.uid}
            />
          </div>
        )}
        {resent && <InvitationLink text={t('staff.resent', { email: resent.email })} url={resent.url} />}
      </section>
    </StudioPage>
  );
}

/** An invitation's link, shown once after inviting or resending, to copy into a chat when e-mail is slow. */
function InvitationLink({ text, url }: { text: string; url: string }) {
  const { t } = useStudioTranslation('studio-settings');
  const [copied, setCopied] = useState(false);
  return (
    <div className="studio-notice studio-notice--success" role="status">
      <p>{text}</p>
      <div className="staff-link">
        <input
          className="studio-input settings-mono"
          readOnly
          value={url}
          aria-label={t('staff.link')}
          data-testid="invitation-link"
          onFocus={(event) => event.target.select()}
        />
        <button
          type="button"
          className="studio-button"
          onClick={() => void navigator.clipboard?.writeText(url).then(() => setCopied(true))}
        >
          {copied ? t('staff.copied') : t('staff.copy')}
        </button>
      </div>
    </div>
  );
}
