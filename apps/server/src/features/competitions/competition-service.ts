import { randomBytes, randomInt } from 'node:crypto';
import { acceptsEntries, isParticipationIgnored, withStateChange } from '@vitrine/domain';
import {
  type CompetitionAdminView,
  type CompetitionNoticeRequest,
  type CompetitionOption,
  type CompetitionPresentation,
  type CompetitionStateChange,
  type CreateCompetitionRequest,
  NOTIFICATION_SUB_TYPE,
  NOTIFICATION_TYPE,
  type ParticipateRequest,
  type ParticipateResponse,
  type UpdateCompetitionRequest,
} from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import type { AbuseLimiter } from '../../http/abuse-limits.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { OutboxDatabase, Transaction } from '../../realtime/outbox.ts';
import type { CommentService } from '../comments/comment-service.ts';
import type { ContactService } from '../contacts/contact-service.ts';
import type { EventService } from '../events/event-service.ts';
import type { NotificationService } from '../notifications/notification-service.ts';
import type { StoreService } from '../stores/store-service.ts';
import type { UserService } from '../users/user-service.ts';

export const COMPETITION_CLOSED_MESSAGE = 'This competition is closed for participation.';
export const ALREADY_PARTICIPATED_MESSAGE = 'You have already taken part in this competition.';
export const NO_PARTICIPANTS_MESSAGE = 'There is nobody left to draw: no participants who have not won yet.';
export const WINNER_NOTIFICATION_BODY = 'Congratulations, you won!';
export const CONTACT_REQUIRED_MESSAGE =
  'This store counts one vote per person: sign in or leave your contact details to vote.';
export const PERSON_ALREADY_VOTED_MESSAGE = 'Someone with your contact details has already taken part.';

interface CompetitionRow {
  uid: string;
  page_uid: string;
  campaign_uid: string;
  type: CompetitionPresentation['type'];
  name: string;
  presentation_primary_text: string;
  show_onsite: boolean;
  cues: Array<{ start: number; end: number | null }>;
  options: CompetitionOption[];
  correct_option_id: string | null;
  open_for_participation: boolean;
  playing: boolean;
  created_at: string | number;
  state_changes: CompetitionStateChange[];
}

interface Winner {
  userUid: string;
  name: string;
  drawnAt: number;
}

/**
 * `count` distinct items chosen uniformly at random (every subset equally likely): a partial
 * Fisher–Yates shuffle driven by node:crypto's unbiased randomInt. Does not change `items`.
 * `pick` (an integer in [min, max)) is replaceable so a test can draw from a seeded source.
 */
export function drawUniformly<T>(
  items: readonly T[],
  count: number,
  pick: (min: number, max: number) => number = randomInt,
): T[] {
  const pool = [...items];
  const picks = Math.min(count, pool.length);
  for (let i = 0; i < picks; i++) {
    const j = pick(i, pool.length);
    [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
  }
  return pool.slice(0, picks);
}

export interface CompetitionServiceOptions {
  db: OutboxDatabase;
  now: () => number;
  comments: CommentService;
  /** The campaigns competitions belong to, and their presentation document. */
  events: Pick<EventService, 'campaignExists' | 'presentCompetitions'>;
  notifications: NotificationService;
  users: UserService;
  /** Per-user and per-address limits of entries. */
  limits: AbuseLimiter;
  /** The store's raffle and poll integrity settings. */
  stores: Pick<StoreService, 'integritySettings'>;
  /** Who is a person (account or contact), for those settings. */
  contacts: Pick<ContactService, 'personKey'>;
}

/**
 * Competitions (spec §3 "Competition presentation", §4 "Competitions"): raffles, quizzes and
 * polls the host presents during a show. Viewers receive them in the campaign presentation
 * document (live); participating posts a comment, then records the participation; the host
 * draws winners uniformly at random and each winner gets a notification.
 */
export function createCompetitionService({
  db,
  now,
  comments,
  events,
  notifications,
  users,
  limits,
  stores,
  contacts,
}: CompetitionServiceOptions) {
  async function load(uid: string): Promise<CompetitionRow> {
    const [row] = await db.query<CompetitionRow>('SELECT * FROM competitions WHERE uid = $1', [uid]);
    if (!row) throw notFound(`No competition "${uid}".`);
    return row;
  }

  /** Every competition of a campaign as the host sees it, with counts, tallies and winners. */
  async function adminViews(
    pageUid: string,
    campaignUid: string,
    q: Queryable = db,
  ): Promise<CompetitionAdminView[]> {
    const rows = await q.query<CompetitionRow>(
      'SELECT * FROM competitions WHERE page_uid = $1 AND campaign_uid = $2 ORDER BY created_at, uid',
      [pageUid, campaignUid],
    );
    if (rows.length === 0) return [];
    const uids = rows.map((row) => row.uid);
    const counts = await q.query<{ competition_uid: string; option_id: string | null; count: string }>(
      `SELECT competition_uid, option_id, count(*) AS count FROM competition_participants
       WHERE competition_uid = ANY($1) GROUP BY competition_uid, option_id`,
      [uids],
    );
    const winners = await q.query<{
      competition_uid: string;
      user_uid: string;
      name: string;
      drawn_at: string;
    }>('SELECT * FROM competition_winners WHERE competition_uid = ANY($1) ORDER BY drawn_at, user_uid', [
      uids,
    ]);
    return rows.map((row) => {
      const mine = counts.filter((count) => count.competition_uid === row.uid);
      const tally: Record<string, number> = {};
      if (row.type === 'poll') {
        for (const option of row.options) tally[option.id] = 0;
        for (const count of mine) if (count.option_id !== null) tally[count.option_id] = Number(count.count);
      }
      const winnerDetails = winners
        .filter((winner) => winner.competition_uid === row.uid)
        .map((winner) => ({ userUid: winner.user_uid, name: winner.name, drawnAt: Number(winner.drawn_at) }));
      return {
        uid: row.uid,
        pageUid: row.page_uid,
        campaignUid: row.campaign_uid,
        type: row.type,
        name: row.name,
        presentationPrimaryText: row.presentation_primary_text,
        showOnsite: row.show_onsite,
        cues: row.cues,
        openForParticipation: row.open_for_participation,
        playing: row.playing,
        options: row.options,
        tally,
        participantCount: mine.reduce((sum, count) => sum + Number(count.count), 0),
        winners: winnerDetails.map(({ name, drawnAt }) => ({ name, drawnAt })),
        createdAt: Number(row.created_at),
        stateChanges: row.state_changes,
        correctOptionId: row.correct_option_id,
        winnerDetails,
      };
    });
  }

  /** The viewer shape: no right answer, no winners' uids. */
  const toPresentation = ({
    pageUid: _page,
    campaignUid: _campaign,
    correctOptionId: _answer,
    winnerDetails: _winners,
    ...presentation
  }: CompetitionAdminView): CompetitionPresentation => presentation;

  /** Writes the campaign's competitions into its presentation document and announces it. */
  async function publishCompetitions(
    tx: Transaction,
    pageUid: string,
    campaignUid: string,
  ): Promise<CompetitionAdminView[]> {
    const views = await adminViews(pageUid, campaignUid, tx);
    await events.presentCompetitions(tx, pageUid, campaignUid, views.map(toPresentation));
    return views;
  }

  /** The host's view of a competition `tx` wrote, after publishing its campaign's presentation. */
  async function view(tx: Transaction, row: CompetitionRow): Promise<CompetitionAdminView> {
    const views = await publishCompetitions(tx, row.page_uid, row.campaign_uid);
    return views.find((candidate) => candidate.uid === row.uid) as CompetitionAdminView;
  }

  async function requireOpen(input: { pageUid: string; campaignUid: string; competitionUid: string }) {
    const [row] = await db.query<CompetitionRow>(
      'SELECT * FROM competitions WHERE uid = $1 AND page_uid = $2 AND campaign_uid = $3',
      [input.competitionUid, input.pageUid, input.campaignUid],
    );
    if (!row) throw notFound(`No competition "${input.competitionUid}" in campaign "${input.campaignUid}".`);
    return row;
  }

  /**
   * The entrant's person key when the store counts persons for this kind of competition (null
   * otherwise); refuses a poll vote from a viewer who is no person, or whose person already voted.
   */
  async function enforcePersonRules(competition: CompetitionRow, userUid: string): Promise<string | null> {
    const settings = await stores.integritySettings(competition.page_uid);
    const countsPersons =
      (competition.type === 'poll' && settings.pollVotes === 'perPerson') ||
      (competition.type === 'raffle' && settings.raffleWinners === 'contactable');
    if (!countsPersons) return null;
    const personKey = await contacts.personKey(competition.page_uid, userUid);
    if (competition.type !== 'poll') return personKey;
    if (personKey === null) throw new HttpError(403, 'contact_required', CONTACT_REQUIRED_MESSAGE);
    const [taken] = await db.query(
      'SELECT 1 FROM competition_participants WHERE competition_uid = $1 AND person_key = $2',
      [competition.uid, personKey],
    );
    if (taken) throw new HttpError(409, 'already_participated', PERSON_ALREADY_VOTED_MESSAGE);
    return personKey;
  }

  /** A competition of this store's campaign; another's is a 404 like an unknown one. */
  async function requireInCampaign(
    pageUid: string,
    campaignUid: string,
    uid: string,
  ): Promise<CompetitionRow> {
    const [row] = await db.query<CompetitionRow>(
      'SELECT * FROM competitions WHERE uid = $1 AND page_uid = $2 AND campaign_uid = $3',
      [uid, pageUid, campaignUid],
    );
    if (!row) throw notFound(`No competition "${uid}" in this show.`);
    return row;
  }

  return {
    /**
     * Entries in a show's competitions (raffles, quizzes, polls) per minute of their time: the
     * analytics feature's participation figures.
     */
    async participationPerMinute(campaignUid: string): Promise<{ minute: number; entries: number }[]> {
      const rows = await db.query<{ minute: number; entries: number }>(
        `SELECT (floor(p.time / 60000.0) * 60000)::float8 AS minute, count(*)::int AS entries
         FROM competition_participants p JOIN competitions c ON c.uid = p.competition_uid
         WHERE c.campaign_uid = $1 GROUP BY 1 ORDER BY 1`,
        [campaignUid],
      );
      return rows.map((row) => ({ minute: Number(row.minute), entries: row.entries }));
    },

    list: (pageUid: string, campaignUid: string) => adminViews(pageUid, campaignUid),

    requireInCampaign: async (pageUid: string, campaignUid: string, uid: string) =>
      void (await requireInCampaign(pageUid, campaignUid, uid)),

    /**
     * Deletes a prepared competition; one somebody took part in is kept (their comments and the
     * winners refer to it), a 409.
     */
    async deletePrepared(pageUid: string, campaignUid: string, uid: string): Promise<void> {
      await requireInCampaign(pageUid, campaignUid, uid);
      await db.transaction(async (tx) => {
        const [entered] = await tx.query(
          'SELECT 1 FROM competition_participants WHERE competition_uid = $1 LIMIT 1',
          [uid],
        );
        if (entered)
          throw new HttpError(409, 'conflict', 'People have taken part in this competition, so it is kept.');
        await tx.query('DELETE FROM competitions WHERE uid = $1', [uid]);
        await publishCompetitions(tx, pageUid, campaignUid);
      });
    },

    async create(
      pageUid: string,
      campaignUid: string,
      input: CreateCompetitionRequest,
    ): Promise<CompetitionAdminView> {
      if (!(await events.campaignExists(pageUid, campaignUid)))
        throw notFound(`No campaign "${campaignUid}" in store "${pageUid}".`);
      const optionIds = input.options.map((option) => option.id);
      if (new Set(optionIds).size !== optionIds.length) {
        throw new HttpError(400, 'invalid_request', 'options: option ids must be unique');
      }
      if (input.correctOptionId !== null && !optionIds.includes(input.correctOptionId)) {
        throw new HttpError(400, 'invalid_request', 'correctOptionId: must be one of the option ids');
      }
      const createdAt = now();
      // Created open or presented: that is its first stamped change (viewers see it from then on).
      const stateChanges = withStateChange(
        [],
        { openForParticipation: false, playing: false },
        { openForParticipation: input.openForParticipation, playing: input.playing },
        createdAt,
      );
      return db.transaction(async (tx) => {
        const [row] = await tx.query<CompetitionRow>(
          `INSERT INTO competitions (uid, page_uid, campaign_uid, type, name, presentation_primary_text, show_onsite,
                                   cues, options, correct_option_id, open_for_participation, playing, created_at,
                                   state_changes)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING *`,
          [
            randomBytes(12).toString('base64url'),
            pageUid,
            campaignUid,
            input.type,
            input.name,
            input.presentationPrimaryText,
            input.showOnsite,
            JSON.stringify(input.cues),
            JSON.stringify(input.options),
            input.correctOptionId,
            input.openForParticipation,
            input.playing,
            createdAt,
            JSON.stringify(stateChanges),
          ],
        );
        return view(tx, row as CompetitionRow);
      });
    },

    /**
     * Changes a competition; opening, closing, presenting or withdrawing it is stamped with the
     * server's clock (state_changes), so viewers see it when their video reaches that moment.
     */
    async update(uid: string, input: UpdateCompetitionRequest): Promise<CompetitionAdminView> {
      await load(uid);
      return db.transaction(async (tx) => {
        // Read under the row lock: two hosts changing it at once stamp both changes, in order.
        const [current] = await tx.query<CompetitionRow>(
          'SELECT * FROM competitions WHERE uid = $1 FOR UPDATE',
          [uid],
        );
        if (!current) throw notFound(`No competition "${uid}".`);
        const next = {
          openForParticipation: input.openForParticipation ?? current.open_for_participation,
          playing: input.playing ?? current.playing,
        };
        const stateChanges = withStateChange(
          current.state_changes,
          { openForParticipation: current.open_for_participation, playing: current.playing },
          next,
          now(),
        );
        const [row] = await tx.query<CompetitionRow>(
          `UPDATE competitions SET name = $2, presentation_primary_text = $3, show_onsite = $4, cues = $5,
           open_for_participation = $6, playing = $7, state_changes = $8 WHERE uid = $1 RETURNING *`,
          [
            uid,
            input.name ?? current.name,
            input.presentationPrimaryText ?? current.presentation_primary_text,
            input.showOnsite ?? current.show_onsite,
            JSON.stringify(input.cues ?? current.cues),
            next.openForParticipation,
            next.playing,
            JSON.stringify(stateChanges),
          ],
        );
        return view(tx, row as CompetitionRow);
      });
    },

    /**
     * Spec §4/§5: empty text is ignored; otherwise a comment is posted, then the participation
     * recorded. Under the store's integrity settings the entrant is also recorded as a person
     * (ContactService.personKey): a poll then takes one vote per person, from persons only, and a
     * raffle draws only among persons, each entered once.
     */
    async participate(
      userUid: string,
      input: ParticipateRequest,
      address: string,
    ): Promise<ParticipateResponse> {
      if (isParticipationIgnored(input.text)) return { status: 'ignored' };
      await limits.enforce('competitionEntry', { userUid, address });
      const competition = await requireOpen(input);
      // Closed a moment ago: a viewer whose video still showed it open may still enter (the grace).
      const stamped = {
        openForParticipation: competition.open_for_participation,
        stateChanges: competition.state_changes,
      };
      if (!acceptsEntries(stamped, now())) {
        throw new HttpError(409, 'competition_closed', COMPETITION_CLOSED_MESSAGE);
      }
      let optionId: string | null = null;
      if (competition.type !== 'raffle') {
        if (!input.optionId || !competition.options.some((option) => option.id === input.optionId)) {
          throw new HttpError(400, 'invalid_request', "optionId: must be one of the competition's options");
        }
        optionId = input.optionId;
      }
      const [already] = await db.query(
        'SELECT 1 FROM competition_participants WHERE competition_uid = $1 AND user_uid = $2',
        [competition.uid, userUid],
      );
      if (already) throw new HttpError(409, 'already_participated', ALREADY_PARTICIPATED_MESSAGE);
      const personKey = await enforcePersonRules(competition, userUid);
      const comment = await comments.postPlayerComment(
        userUid,
        {
          text: input.text.trim(),
          threadId: null,
          pageUid: input.pageUid,
          campaignUid: input.campaignUid,
          context: 'checkout',
        },
        { competitionUid: competition.uid },
        undefined,
        // A poll vote is recorded like any entry but not told to the public chat (issue 13 §8).
        competition.type === 'poll' ? 'authorAndHost' : 'public',
      );
      const inserted = await db.query(
        `INSERT INTO competition_participants (competition_uid, user_uid, option_id, comment_uid, time, person_key)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING user_uid`,
        [competition.uid, userUid, optionId, comment.uid, now(), personKey],
      );
      if (inserted.length === 0) {
        // The comment stays (it was posted); the entry is refused like a second one.
        throw new HttpError(
          409,
          'already_participated',
          personKey === null ? ALREADY_PARTICIPATED_MESSAGE : PERSON_ALREADY_VOTED_MESSAGE,
        );
      }
      await users.recordCompetition(userUid, 'competitions_participated', competition.uid);
      await db.transaction((tx) => publishCompetitions(tx, competition.page_uid, competition.campaign_uid));
      return { status: 'participated', commentUid: comment.uid };
    },

    async dismiss(userUid: string, input: { pageUid: string; campaignUid: string; competitionUid: string }) {
      const competition = await requireOpen(input);
      await users.recordCompetition(userUid, 'competitions_dismissed', competition.uid);
      return { ok: true as const };
    },

    /**
     * Draws `count` winners uniformly at random (node:crypto randomInt, a partial Fisher–Yates
     * shuffle) among participants who have not won yet — for a quiz with a right answer, among
     * those who gave it, leaving out `excluded` users (viewers banned from the store). Each
     * winner gets a notification flagged isCompetitionWinner.
     */
    async draw(
      uid: string,
      count: number,
      excluded: ReadonlySet<string> = new Set(),
    ): Promise<{ winners: Winner[] }> {
      const competition = await load(uid);
      const settings = await stores.integritySettings(competition.page_uid);
      // A contactable-only raffle draws among entrants recorded as persons (one entry each).
      const personsOnly = competition.type === 'raffle' && settings.raffleWinners === 'contactable';
      const entrants = await db.query<{ user_uid: string; comment_uid: string | null }>(
        `SELECT p.user_uid, p.comment_uid FROM competition_participants p
         WHERE p.competition_uid = $1
           AND ($2::text IS NULL OR p.option_id = $2)
           AND (NOT $3::boolean OR p.person_key IS NOT NULL)
           AND NOT EXISTS (SELECT 1 FROM competition_winners w WHERE w.competition_uid = p.competition_uid AND w.user_uid = p.user_uid)
         ORDER BY p.user_uid`,
        [uid, competition.type === 'quiz' ? competition.correct_option_id : null, personsOnly],
      );
      const names = await users.displayNames(entrants.map((entrant) => entrant.user_uid));
      const candidates = entrants.flatMap((entrant) => {
        if (excluded.has(entrant.user_uid)) return [];
        const name = names.get(entrant.user_uid);
        return name === undefined ? [] : [{ ...entrant, name }];
      });
      if (candidates.length === 0) throw new HttpError(409, 'no_participants', NO_PARTICIPANTS_MESSAGE);
      const drawnAt = now();
      const winners: Winner[] = [];
      for (const candidate of drawUniformly(candidates, count)) {
        const inserted = await db.query(
          `INSERT INTO competition_winners (competition_uid, user_uid, name, drawn_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT DO NOTHING RETURNING user_uid`,
          [uid, candidate.user_uid, candidate.name, drawnAt],
        );
        if (inserted.length === 0) continue; // drawn by a concurrent draw already
        winners.push({ userUid: candidate.user_uid, name: candidate.name, drawnAt });
        if (candidate.comment_uid) await comments.markCompetitionWinner(candidate.comment_uid);
        await notifications.create({
          userUid: candidate.user_uid,
          pageUid: competition.page_uid,
          campaignUid: competition.campaign_uid,
          notificationType: NOTIFICATION_TYPE.competition,
          notificationSubType: NOTIFICATION_SUB_TYPE.competition,
          notificationData: { title: competition.name, body: WINNER_NOTIFICATION_BODY, uid: competition.uid },
          threadId: null,
          metaData: { competitionUid: competition.uid, isCompetitionWinner: true },
        });
      }
      await db.transaction((tx) => publishCompetitions(tx, competition.page_uid, competition.campaign_uid));
      return { winners };
    },

    /** A competition notice to every participant. */
    async notice(uid: string, input: CompetitionNoticeRequest): Promise<{ notified: number }> {
      const competition = await load(uid);
      const participants = await db.query<{ user_uid: string }>(
        'SELECT user_uid FROM competition_participants WHERE competition_uid = $1',
        [uid],
      );
      for (const { user_uid } of participants) {
        await notifications.create({
          userUid: user_uid,
          pageUid: competition.page_uid,
          campaignUid: competition.campaign_uid,
          notificationType: NOTIFICATION_TYPE.competition,
          notificationSubType: NOTIFICATION_SUB_TYPE.competition,
          notificationData: { title: input.title, body: input.body, uid: competition.uid },
          threadId: null,
          metaData: { competitionUid: competition.uid },
        });
      }
      return { notified: participants.length };
    },
  };
}

export type CompetitionService = ReturnType<typeof createCompetitionService>;
