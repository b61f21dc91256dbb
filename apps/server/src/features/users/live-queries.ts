import { LiveQueryParams, type UserDoc } from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import { type LiveQueryCatalogue, onlyTheUser } from '../../realtime/live-query.ts';

export const userTopic = (userUid: string) => `user:${userUid}`;

interface UserRow {
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

export function userLiveQueries(db: Queryable): Pick<LiveQueryCatalogue, 'user'> {
  return {
    user: {
      params: LiveQueryParams.user,
      authorize: onlyTheUser,
      topic: ({ userUid }) => userTopic(userUid),
      snapshot: async ({ userUid }) => {
        const rows = await db.query<UserRow>('SELECT * FROM users WHERE uid = $1', [userUid]);
        return rows.map((row) => {
          const doc: UserDoc = {
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
          return { docId: row.uid, doc };
        });
      },
    },
  };
}
