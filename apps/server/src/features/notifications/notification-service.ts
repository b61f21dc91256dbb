import { randomBytes } from 'node:crypto';
import type { NotificationDoc } from '@vitrine/protocol';
import type { OutboxDatabase } from '../../realtime/outbox.ts';
import { notificationTopic, toNotificationDoc } from './live-queries.ts';

export interface NewNotification {
  userUid: string;
  pageUid: string;
  campaignUid: string;
  notificationType: string;
  notificationSubType: string | null;
  notificationData: NotificationDoc['notificationData'];
  threadId: string | null;
  metaData: Record<string, unknown>;
}

/**
 * A user's notifications (spec §3): host replies and competition notices, read only by that
 * user through the `notifications` live query. Clients apply the display timing rules
 * (private messages only when newer than 30 s; winner notices after the video delay + 5 s).
 */
export function createNotificationService(db: OutboxDatabase, now: () => number) {
  return {
    create(notification: NewNotification): Promise<NotificationDoc> {
      return db.transaction(async (tx) => {
        const [row] = await tx.query<Parameters<typeof toNotificationDoc>[0]>(
          `INSERT INTO notifications (uid, user_uid, page_uid, campaign_uid, notification_type, notification_sub_type,
                                    notification_data, thread_id, meta_data, created)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
          [
            randomBytes(12).toString('base64url'),
            notification.userUid,
            notification.pageUid,
            notification.campaignUid,
            notification.notificationType,
            notification.notificationSubType,
            JSON.stringify(notification.notificationData),
            notification.threadId,
            JSON.stringify(notification.metaData),
            now(),
          ],
        );
        if (!row) throw new Error('inserting a notification returned no row');
        const doc = toNotificationDoc(row);
        tx.publish(notificationTopic(notification.userUid), [{ type: 'added', docId: doc.uid, doc }]);
        return doc;
      });
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
