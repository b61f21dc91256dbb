import { pickCampaignEvent } from '@vitrine/domain';
import {
  FIRST_ANSWER_CALLS,
  FIRST_ANSWERS_ELEMENT_ID,
  type FirstAnswerCall,
  firstAnswerKey,
  type LiveEvent,
  PLAYER_CALL_ROUTES,
} from '@vitrine/protocol';
import type { FastifyInstance } from 'fastify';
import { scriptSafeJson } from './page-head.ts';
import type { PublicPageAddress } from './public-page-address.ts';

/** One request the app makes before its first paint; `readAnswer` answers it as the app would get it. */
type Ask = (name: string, params: Record<string, unknown>) => Promise<unknown>;

/** A call (not a read) a public page makes before it paints: asked as the app asks it. */
const isFirstCall = (name: string): name is FirstAnswerCall =>
  (FIRST_ANSWER_CALLS as readonly string[]).includes(name);

/**
 * The answers to the reads a public page's route loader makes before the page paints (the shop
 * page: its store, player settings and shows; a show: those and the show's products; a clip: the
 * clip), by firstAnswerKey. Each is asked through the server's own routes (`inject`), so it is
 * exactly the answer the app would have fetched; one that fails is left out and the app asks it
 * itself.
 */
export async function firstAnswers(
  server: FastifyInstance,
  address: PublicPageAddress,
): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  const ask: Ask = async (name, params) => {
    const response = isFirstCall(name)
      ? await server.inject({ method: 'POST', url: PLAYER_CALL_ROUTES[name].path, payload: params })
      : await server.inject({
          method: 'GET',
          url: `/reads/${name}?params=${encodeURIComponent(JSON.stringify(params))}`,
        });
    if (response.statusCode !== 200) return undefined;
    const answer: unknown = response.json();
    answers[firstAnswerKey(name, params)] = answer;
    return answer;
  };
  if (address.kind === 'clip') {
    await ask('getClip', { pageUid: address.pageUid, clipUid: address.clipUid });
    return answers;
  }
  const { pageUid } = address;
  const store = [ask('storeInfo', { pageUid }), ask('playerSettings', { pageUid })];
  if (address.kind === 'shop') {
    await Promise.all([...store, ask('liveEvents.shop', { pageUid })]);
    return answers;
  }
  const [events] = await Promise.all([
    ask('liveEvents.byCampaign', { campaignIds: [address.campaignUid] }) as Promise<LiveEvent[] | undefined>,
    ...store,
  ]);
  // The show the app plays (show-loader.ts): the address's, or the campaign's most relevant one.
  const event = address.eventUid
    ? events?.find((candidate) => candidate.id === address.eventUid)
    : pickCampaignEvent(events ?? []);
  if (event) await ask('liveEventProducts', { eventId: event.id });
  return answers;
}

/** The answers as the page's JSON element (not run: the page's CSP allows it as it is). */
export function firstAnswersElement(answers: Record<string, unknown>): string {
  return `<script type="application/json" id="${FIRST_ANSWERS_ELEMENT_ID}">${scriptSafeJson(answers)}</script>`;
}
