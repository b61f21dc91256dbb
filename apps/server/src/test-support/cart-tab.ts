import type { CheckoutReservationDoc, ServerFrame } from '@vitrine/protocol';
import { CAMPAIGN, SHOP, type Shopper } from './commerce-fixture.ts';
import {
  authFrame,
  connect,
  isAnswerTo,
  isFrame,
  type RealtimeTestClient,
  subscribeFrame,
  type TestServer,
} from './realtime-test-client.ts';

/** A shopper's open player tab following their cart's live document in the fixture's campaign. */
export interface CartTab {
  readonly client: RealtimeTestClient;
  /** The next change of the cart document for which `matches` holds (see `nextFrame`). */
  nextChange(matches: (doc: CheckoutReservationDoc) => boolean): Promise<ServerFrame>;
}

/** Opens a tab signed in as the shopper and subscribed to their cart, once its first answer came. */
export async function openCartTab(server: Pick<TestServer, 'wsUrl'>, shopper: Shopper): Promise<CartTab> {
  const client = await connect(server.wsUrl);
  client.send(authFrame(shopper.token));
  await client.nextFrame(isFrame('auth_result'));
  const subscribe = subscribeFrame('checkout', {
    pageUid: SHOP,
    campaignUid: CAMPAIGN,
    userUid: shopper.uid,
  });
  client.send(subscribe);
  await client.nextFrame(isAnswerTo(subscribe.id));
  return {
    client,
    nextChange: (matches) =>
      client.nextFrame(
        (frame) =>
          frame.type === 'changes' &&
          frame.id === subscribe.id &&
          frame.changes.some((change) => matches(change.doc as CheckoutReservationDoc)),
      ),
  };
}
