import { reactionAllowed } from '@vitrine/domain';
import type { ReactionDoc } from '@vitrine/protocol';
import { type CSSProperties, useEffect, useRef, useState } from 'react';
import { logFailure } from '../../lib/debug.ts';
import type { LiveDoc } from '../../lib/realtime/realtime-client.ts';
import { getRealtimeClient } from '../../lib/realtime/use-live-query.ts';
import { Icon } from './icons.tsx';
import { sendReaction } from './interaction-api.ts';
import { useInteractionTranslation } from './interaction-i18n.ts';

/** The reaction a viewer sends with the button (spec §3: type defaults to love). */
export const DEFAULT_REACTION = 'love';
/** Other clients may send other types; love (the button's) is drawn as an icon, the rest as emoji. */
const REACTION_EMOJI: Record<string, string> = { like: '👍', laugh: '😂', wow: '😮', clap: '👏', fire: '🔥' };
/** How long one floating reaction lives on screen (matches the CSS animation). */
const FLOAT_MS = 2600;
/** Most reactions floating at once; a busy room shows a steady stream, not a wall of hearts. */
const MAX_FLOATING = 24;
/** An aggregated tick ("12 loves") floats at most this many hearts. */
const MAX_FLOATS_PER_DOC = 5;

interface Floating {
  key: number;
  /** The emoji of the reaction, or null for a heart icon. */
  emoji: string | null;
  /** Horizontal drift and start offset, so simultaneous reactions don't stack on one line. */
  drift: number;
  offset: number;
}

/** How many reactions one document stands for: one, or the count of an aggregated tick. */
function reactionCount(doc: ReactionDoc): number {
  const count = (doc as ReactionDoc & { count?: unknown }).count;
  return typeof count === 'number' && Number.isInteger(count) && count > 0 ? count : 1;
}

function newUid(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

/**
 * Everyone's reactions floating up the video, from the reactions live query (reactions from now
 * on), and the viewer's reaction button. The button sends at most one reaction per 2 seconds
 * (spec §7, §9); the viewer's own reaction floats at once and its echo from the server is skipped.
 */
export default function Reactions({
  pageUid,
  campaignUid,
  onReacted,
}: {
  pageUid: string;
  campaignUid: string;
  onReacted?: () => void;
}) {
  const { t } = useInteractionTranslation();
  const [floating, setFloating] = useState<Floating[]>([]);
  const nextKey = useRef(0);
  const lastSentAt = useRef<number | null>(null);
  const ownUids = useRef(new Set<string>());

  const float = (type: string, count: number) => {
    const added: Floating[] = [];
    for (let i = 0; i < Math.min(count, MAX_FLOATS_PER_DOC); i++) {
      nextKey.current += 1;
      added.push({
        key: nextKey.current,
        emoji: REACTION_EMOJI[type] ?? null,
        drift: Math.round((Math.random() - 0.5) * 60),
        offset: Math.round(Math.random() * 24),
      });
    }
    const keys = new Set(added.map((item) => item.key));
    setFloating((current) => [...current, ...added].slice(-MAX_FLOATING));
    setTimeout(() => setFloating((current) => current.filter((item) => !keys.has(item.key))), FLOAT_MS);
  };
  const floatRef = useRef(float);
  floatRef.current = float;

  // Subscribed directly rather than through useLiveQuery: only the newly arrived documents matter.
  useEffect(() => {
    const seen = new Set<string>();
    let primed = false;
    return getRealtimeClient().subscribe<ReactionDoc>('reactions', { pageUid, campaignUid }, (state) => {
      // Whatever the first subscribed state holds is history (another panel's subscription may
      // already hold some); only what arrives after it floats.
      const live = primed;
      if (state.status === 'SUBSCRIBED') primed = true;
      for (const doc of state.docs as readonly LiveDoc<ReactionDoc>[]) {
        if (seen.has(doc.docId)) continue;
        seen.add(doc.docId);
        if (!live || ownUids.current.delete(doc.uid)) continue;
        floatRef.current(doc.type, reactionCount(doc));
      }
    });
  }, [pageUid, campaignUid]);

  const react = () => {
    const now = Date.now();
    if (!reactionAllowed(lastSentAt.current, now)) return;
    lastSentAt.current = now;
    const uid = newUid();
    ownUids.current.add(uid);
    float(DEFAULT_REACTION, 1);
    onReacted?.();
    sendReaction({ uid, type: DEFAULT_REACTION, source: 'player', time: now, pageUid, campaignUid }).catch(
      (error: unknown) => {
        ownUids.current.delete(uid);
        logFailure('sending a reaction failed', error);
      },
    );
  };

  return (
    <>
      <div className="reaction-layer" aria-hidden="true" data-testid="reaction-layer">
        {floating.map((item) => (
          <span
            key={item.key}
            className="reaction-float"
            style={{ '--drift': `${item.drift}px`, '--offset': `${item.offset}px` } as CSSProperties}
          >
            {item.emoji ?? <Icon name="heart" />}
          </span>
        ))}
      </div>
      <button
        type="button"
        className="reaction-button"
        aria-label={t('interaction.reactions.send')}
        title={t('interaction.reactions.send')}
        onClick={react}
      >
        <Icon name="heart" />
      </button>
    </>
  );
}
