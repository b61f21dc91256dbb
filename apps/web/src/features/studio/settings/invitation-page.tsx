import { SectionPlaceholder } from '../ui/section-placeholder.tsx';

/** /studio/invitation#<token>: accepting a staff invitation (a placeholder until built). */
export default function InvitationPage() {
  return (
    <main className="studio-centre">
      <SectionPlaceholder titleKey="nav.staff" />
    </main>
  );
}
