import { makePlaylist, nextPlaylistItem, type Playlist, playlistFromHost } from '@vitrine/domain';
import type { EventProduct, LiveEvent } from '@vitrine/protocol';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLoaderData } from 'react-router';
import { read } from '../../lib/api.ts';
import { logFailure } from '../../lib/debug.ts';
import { HostBridgeProvider, useHostBridge, useHostCommand } from '../host-bridge/host-bridge-context.tsx';
import { OnsiteEventUpdates } from '../host-bridge/onsite-event-updates.tsx';
import type { MultiEventData } from './multi-event-loader.ts';
import { ShowPlayer } from './show-player.tsx';

/** The multi-event widget (its code loads with the route; multi-event-loader.ts fetches its data). */
export function MultiEventPlayer() {
  const data = useLoaderData() as MultiEventData;
  return (
    <HostBridgeProvider pageUid={data.pageUid}>
      <MultiEventPlaylist data={data} />
    </HostBridgeProvider>
  );
}

function MultiEventPlaylist({ data: loaded }: { data: MultiEventData }) {
  const { t } = useTranslation();
  const host = useHostBridge();
  // Shows of the gallery as the on-site updates of the host's active stores last left them (spec §7).
  const [updated, setUpdated] = useState<Readonly<Record<string, LiveEvent>>>({});
  const data = useMemo(
    () => ({ ...loaded, events: loaded.events.map((event) => updated[event.id] ?? event) }),
    [loaded, updated],
  );
  const { send: sendToHost } = host;
  const onShowUpdated = useCallback(
    (event: LiveEvent) => {
      if (!loaded.events.some((candidate) => candidate.id === event.id)) return;
      setUpdated((current) => ({ ...current, [event.id]: event }));
      sendToHost('gallery_show_updated', { eventUid: event.id });
    },
    [loaded.events, sendToHost],
  );
  const [playlist, setPlaylist] = useState<Playlist>(() =>
    makePlaylist(
      data.events.map((event) => event.id),
      data.initialEventId,
    ),
  );
  const [products, setProducts] = useState<{ eventId: string; products: EventProduct[] } | null>(null);
  const active = data.events.find((event) => event.id === playlist.activeItemId);

  // Each show's products, loaded once: the host may ask to have shows ready before it switches.
  const productRequests = useRef(new Map<string, Promise<EventProduct[]>>());
  const loadProducts = useCallback((eventId: string) => {
    let request = productRequests.current.get(eventId);
    if (!request) {
      request = read('liveEventProducts', { eventId });
      // A failed load is tried again next time rather than remembered.
      request.catch(() => productRequests.current.delete(eventId));
      productRequests.current.set(eventId, request);
    }
    return request;
  }, []);

  useHostCommand((command) => {
    const known = (eventId: string) => data.events.some((event) => event.id === eventId);
    switch (command.type) {
      case 'playlist_update': {
        const fromHost = playlistFromHost(
          data.events.map((event) => event.id),
          command.payload,
        );
        if (fromHost) setPlaylist(fromHost);
        break;
      }
      case 'cache_preload_events':
        for (const eventId of command.payload.eventIds) {
          if (known(eventId)) loadProducts(eventId).catch(() => undefined);
        }
        break;
      case 'cache_activate_event':
        // Only a show of this store that is in the playlist; anything else is ignored.
        if (known(command.payload.eventId)) {
          setPlaylist((current) =>
            current.items.some((item) => item.eventId === command.payload.eventId)
              ? { ...current, activeItemId: command.payload.eventId }
              : current,
          );
        }
        break;
    }
  });

  useEffect(() => {
    if (!active) return;
    let cancelled = false;
    loadProducts(active.id).then(
      (loaded) => {
        if (!cancelled) setProducts({ eventId: active.id, products: loaded });
      },
      (error: unknown) => logFailure('loading the show products failed', error),
    );
    return () => {
      cancelled = true;
    };
  }, [active, loadProducts]);

  if (!active) return <p className="panel-empty">{t('player.noShows')}</p>;
  const nextId = nextPlaylistItem(playlist);
  const next = data.events.find((event) => event.id === nextId);
  const select = (eventId: string) => setPlaylist((current) => ({ ...current, activeItemId: eventId }));

  return (
    <div className="multi-event" data-playlist-size={playlist.size}>
      {host.connected && <OnsiteEventUpdates storeIds={host.activeStoreIds} onUpdate={onShowUpdated} />}
      <ShowPlayer
        key={active.id}
        show={{
          pageUid: data.pageUid,
          campaignUid: active.event.campaignId,
          storeInfo: data.storeInfo,
          playerSettings: data.playerSettings,
          events: data.events,
          event: active,
          products: products?.eventId === active.id ? products.products : [],
        }}
        productsLoaded={products?.eventId === active.id}
        {...(next
          ? {
              next: {
                eventName: next.event.eventName,
                clipMode: data.clipMode,
                onNext: () => select(next.id),
              },
            }
          : {})}
      />
      {playlist.size > 1 && (
        <nav className="playlist" aria-label={t('player.playlist')}>
          {playlist.items.map((item, index) => {
            const event = data.events.find((candidate) => candidate.id === item.eventId);
            if (!event) return null;
            return (
              <button
                key={item.eventId}
                type="button"
                aria-current={item.eventId === playlist.activeItemId}
                onClick={() => select(item.eventId)}
                data-event-id={item.eventId}
              >
                <span className="playlist__index">{index + 1}</span>
                {event.event.eventName}
              </button>
            );
          })}
        </nav>
      )}
    </div>
  );
}
