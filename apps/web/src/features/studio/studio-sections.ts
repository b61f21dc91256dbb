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
