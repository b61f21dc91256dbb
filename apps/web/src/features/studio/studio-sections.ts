import { roleIncludes } from '@vitrine/domain';
import type { StaffRole } from '@vitrine/protocol';

/**
 * The studio's sections: their path under `/studio/:pageUid/`, the least role that sees them
 * (the server refuses the calls of a lower role anyway) and their label key in the `studio`
 * namespace. The order is the navigation's.
 */
export const STUDIO_SECTIONS = [
  { path: 'shows', role: 'moderator', label: 'nav.shows' },
  { path: 'live', role: 'host', label: 'nav.live' },
  { path: 'products', role: 'host', label: 'nav.products' },
  { path: 'orders', role: 'owner', label: 'nav.orders' },
  { path: 'analytics', role: 'host', label: 'nav.analytics' },
  { path: 'contacts', role: 'owner', label: 'nav.contacts' },
  { path: 'mail', role: 'owner', label: 'nav.mail' },
  { path: 'settings', role: 'host', label: 'nav.settings' },
  { path: 'staff', role: 'owner', label: 'nav.staff' },
  { path: 'audit', role: 'owner', label: 'nav.audit' },
] as const satisfies readonly { path: string; role: StaffRole; label: string }[];

export type StudioSectionPath = (typeof STUDIO_SECTIONS)[number]['path'];

/**
 * Where `/studio/:pageUid` opens (issue 33 item 13): on the live show's Go live page when a show
 * is live and the member may run it (hosts and owners), else on the first section their role sees.
 */
export function openingSection(role: StaffRole, liveShowUid: string | null): string {
  if (liveShowUid !== null && roleIncludes(role, 'host')) return `live/${encodeURIComponent(liveShowUid)}`;
  return STUDIO_SECTIONS.find((section) => roleIncludes(role, section.role))?.path ?? 'shows';
}
