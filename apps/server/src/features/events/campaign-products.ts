import type { Queryable } from '../../db/database.ts';

/**
 * Whether a product is shown in some published event of a campaign: only those can be bought in
 * the campaign's cart. Drafts are unpublished; private events are open to anyone with the link.
 */
export async function isProductInCampaign(
  db: Queryable,
  campaignUid: string,
  productUid: string,
): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM event_products ep JOIN live_events e ON e.id = ep.event_id
     WHERE e.campaign_uid = $1 AND ep.product_uid = $2 AND e.status <> 'draft' LIMIT 1`,
    [campaignUid, productUid],
  );
  return rows.length > 0;
}
