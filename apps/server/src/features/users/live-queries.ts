import { LiveQueryParams } from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import { type LiveQueryCatalogue, onlyTheUser } from '../../realtime/live-query.ts';
import { toUserDoc, USER_DOC_COLUMNS, type UserRow, userTopic } from './user-records.ts';

export { userTopic } from './user-records.ts';

export function userLiveQueries(db: Queryable): Pick<LiveQueryCatalogue, 'user'> {
  return {
    user: {
      params: LiveQueryParams.user,
      authorize: onlyTheUser,
      topic: ({ userUid }) => userTopic(userUid),
      snapshot: async ({ userUid }) => {
        const rows = await db.query<UserRow>(`SELECT ${USER_DOC_COLUMNS} FROM users WHERE uid = $1`, [
          userUid,
        ]);
        return rows.map((row) => ({ docId: row.uid, doc: toUserDoc(row) }));
      },
    },
  };
}
