import { CommentDoc } from '@vitrine/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { CAMPAIGN, call, EVENT, SHOP, type Shopper, signIn } from '../../test-support/commerce-fixture.ts';
import { commerceTestApp } from '../../test-support/commerce-test-app.ts';
import { adminHeaders } from '../../test-support/test-app.ts';

// Spec §3 "Comment": afterCheckingCheckout and hasCheckoutMatch. A viewer's comment is checked
// against the codes of the products its show sells (spec §4: a product code in a comment adds
// that product to the cart): the host sees which comments asked for a product.

const app = commerceTestApp();
let viewer: Shopper;

beforeAll(async () => {
  // A product of the store that no show sells: its code asks for nothing in this show.
  const unlisted = await app().server.inject({
    method: 'PUT',
    url: `/staff/stores/${SHOP}/products/unlisted`,
    headers: adminHeaders,
    payload: { name: 'Unlisted', sku: 'UNL-1', prices: { DKK: 1000 }, stock: 5 },
  });
  expect(unlisted.statusCode, unlisted.body).toBeLessThan(300);
  viewer = await signIn(app());
});

async function comment(text: string, extra: object = {}): Promise<CommentDoc> {
  const response = await call(app(), viewer, '/shopapiv2/comment/playerComment', {
    pageUid: SHOP,
    campaignUid: CAMPAIGN,
    text,
    ...extra,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return CommentDoc.parse(response.body);
}

describe('a viewer comment checked against the show’s product codes', () => {
  it.each([
    ['a product’s SKU', 'MUG please!'],
    ['a variant’s SKU, in any case', 'I want #sh-m'],
  ])('names a product by %s: checked, with a match', async (_, text) => {
    expect(await comment(text)).toMatchObject({ afterCheckingCheckout: true, hasCheckoutMatch: true });
  });

  it.each([
    ['no code', 'lovely colours'],
    ['a code inside a longer word', 'MUGS are great'],
    ['the code of a product the show does not sell', 'UNL-1 too?'],
  ])('with %s: checked, without a match', async (_, text) => {
    expect(await comment(text)).toMatchObject({ afterCheckingCheckout: true, hasCheckoutMatch: false });
  });

  it("a reply is checked too, and the store's staff read what was stored", async () => {
    const question = await comment('does it come in blue?');
    const reply = await comment('then SH-L for me', { threadId: question.uid });
    expect(reply).toMatchObject({ afterCheckingCheckout: true, hasCheckoutMatch: true });
    const listed = await app().server.inject({
      method: 'GET',
      url: `/staff/stores/${SHOP}/shows/${EVENT}/comments?limit=100`,
      headers: adminHeaders,
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const stored = (listed.json() as { comments: CommentDoc[] }).comments.find(
      (doc) => doc.uid === reply.uid,
    );
    expect(stored).toMatchObject({ afterCheckingCheckout: true, hasCheckoutMatch: true });
  });

  it('a host reply is not a viewer asking for a product: it is never checked', async () => {
    const question = await comment('is MUG dishwasher safe?');
    const show = `/staff/stores/${SHOP}/shows/${EVENT}`;
    const response = await app().server.inject({
      method: 'POST',
      url: `${show}/moderation/comments/${question.uid}/answer`,
      headers: adminHeaders,
      payload: { text: 'Yes, MUG is.', private: false, version: 0 },
    });
    expect(response.statusCode, response.body).toBe(200);
    const listed = await app().server.inject({
      method: 'GET',
      url: `${show}/comments`,
      headers: adminHeaders,
    });
    const reply = (listed.json() as { comments: CommentDoc[] }).comments.find(
      (doc) => doc.threadId === question.uid && doc.text === 'Yes, MUG is.',
    );
    expect(reply).toMatchObject({ source: 'host', afterCheckingCheckout: false, hasCheckoutMatch: false });
  });
});
