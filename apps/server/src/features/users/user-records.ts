import type { UserDoc } from '@vitrine/protocol';

export const userTopic = (userUid: string) => `user:${userUid}`;

export interface UserRow {
  uid: string;
  name: string;
  is_anonymous: boolean;
  email: string | null;
  avatar: string | null;
  locale_code: UserDoc['localeCode'];
  currency_code: UserDoc['currencyCode'];
  tracking_id: string | null;
  competitions_participated: string[];
  competitions_dismissed: string[];
}

/** The columns of a user document; never `*`, so credentials added later cannot leak. */
export const USER_DOC_COLUMNS =
  'uid, name, is_anonymous, email, avatar, locale_code, currency_code, tracking_id, competitions_participated, competitions_dismissed';

export function toUserDoc(row: UserRow): UserDoc {
  return {
    uid: row.uid,
    name: row.name,
    isAnonymous: row.is_anonymous,
    email: row.email,
    avatar: row.avatar,
    localeCode: row.locale_code,
    currencyCode: row.currency_code,
    tracking_id: row.tracking_id,
    competitionsParticipated: row.competitions_participated,
    competitionsDismissed: row.competitions_dismissed,
  };
}
