import { LiveQueryParams, type NotificationDoc } from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import { type LiveQueryCatalogue, onlyTheUser } from '../../realtime/live-query.ts';

export const notificationTopic = (userUid: string) => `notifications:${userUid}`;

interface NotificationRow {
  uid: string;
  page_uid: string;
  campaign_uid: string;
  notification_type: string;
  notification_sub_type: string | null;
  notification_data: NotificationDoc['notificationData'];
  thread_id: string | null;
  meta_data: Record<string, unknown>;
  created: number;
}

export function toNotificationDoc(row: NotificationRow): NotificationDoc {
  return {
    uid: row.uid,
    notificationType: row.notification_type,
    notificationSubType: row.notification_sub_type,
    notificationData: row.notification_data,
    created: row.created,
    pageUid: row.page_uid,
    campaignUid: row.campaign_uid,
    threadId: row.thread_id,
    metaData: row.meta_data,
  };
}

export function notificationLiveQueries(db: Queryable): Pick<LiveQueryCatalogue, 'notifications'> {
  return {
    notifications: {
      params: LiveQueryParams.notifications,
      authorize: onlyTheUser,
      topic: ({ userUid }) => notificationTopic(userUid),
      snapshot: async ({ userUid, campaignUid }) => {
        const rows = await db.query<NotificationRow>(
          'SELECT * FROM notifications WHERE user_uid = $1 AND campaign_uid = $2 ORDER BY created DESC LIMIT 100',
          [userUid, campaignUid],
        );
        return rows.map((row) => ({ docId: row.uid, doc: toNotificationDoc(row) }));
      },
      select: (change, { campaignUid }) =>
        (change.doc as NotificationDoc).campaignUid === campaignUid ? change : null,
    },
  };
}
