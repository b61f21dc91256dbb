import { formatMoney, railIndexOfKey } from '@vitrine/domain';
import type { ControlRoomLineupItem, ControlRoomPresentations, PriceList } from '@vitrine/protocol';
import type { Locale } from '@vitrine/protocol/vocabulary';
import { useEffect, useRef, useState } from 'react';
import { staffCall } from '../studio-api.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { refusalText } from '../use-staff-query.ts';

function priceText(prices: PriceList, language: string): string {
  const [currency, amount] = Object.entries(prices)[0] ?? [];
  return currency && amount !== undefined ? formatMoney(amount, currency, language as Locale) : '';
}

/** Whether a key press belongs to a field (typing a 3 in the chat must not present product 3). */
function typingIn(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

/**
 * The show's line-up as a rail: a click, or keys 1–9, presents a product (again: stops it), up to
 * three at once; a product can be marked sold out. Hosts act; moderators see what is presented.
 */
export function ProductRail({
  pageUid,
  showUid,
  lineup,
  presented,
  soldOut,
  canPresent,
  onPresentations,
  onSoldOut,
}: {
  pageUid: string;
  showUid: string;
  lineup: readonly ControlRoomLineupItem[];
  presented: ReadonlySet<string>;
  soldOut: ReadonlySet<string>;
  canPresent: boolean;
  onPresentations: (presentations: ControlRoomPresentations) => void;
  onSoldOut: () => void;
}) {
  const { t, i18n } = useStudioTranslation('studio-control-room');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const params = { pageUid, showUid };

  const toggle = async (item: ControlRoomLineupItem) => {
    setFailure(null);
    setBusy(item.uid);
    try {
      onPresentations(
        presented.has(item.uid)
          ? await staffCall('stopPresenting', { params: { ...params, productUid: item.uid } })
          : await staffCall('presentProduct', { params, body: { uid: item.uid } }),
      );
    } catch (error) {
      setFailure(refusalText(error, t('rail.failed')));
    } finally {
      setBusy(null);
    }
  };

  const latest = useRef({ toggle, lineup, canPresent });
  latest.current = { toggle, lineup, canPresent };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || typingIn(event.target)) return;
      const { toggle: act, lineup: items, canPresent: may } = latest.current;
      const index = railIndexOfKey(event.key, items.length);
      const item = index === null ? undefined : items[index];
      if (!may || !item) return;
      event.preventDefault();
      void act(item);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className="room-rail">
      {canPresent && <p className="studio-muted studio-small">{t('rail.help')}</p>}
      <ErrorNotice message={failure} />
      {lineup.length === 0 ? (
        <p className="studio-notice">{t('rail.empty')}</p>
      ) : (
        <ol className="room-rail__list">
          {lineup.map((item, index) => {
            const isPresented = presented.has(item.uid);
            const isSoldOut = soldOut.has(item.uid);
            return (
              <li
                key={item.uid}
                className={`room-rail__item${isPresented ? ' room-rail__item--on' : ''}`}
                data-product-uid={item.uid}
                data-presented={isPresented}
              >
                <span className="room-rail__key" aria-hidden="true">
                  {index < 9 ? index + 1 : ''}
                </span>
                {item.image ? (
                  <img className="room-rail__image" src={item.image} alt="" />
                ) : (
                  <span className="room-rail__image room-rail__image--empty" aria-hidden="true" />
                )}
                <span className="room-rail__text">
                  <span className="room-rail__name">{item.name}</span>
                  <span className="studio-small studio-muted">
                    {priceText(item.prices, i18n.language)}
                    {isPresented && <span className="studio-badge room-badge--on"> {t('rail.onAir')}</span>}
                    {isSoldOut && <span className="studio-badge room-badge--sold"> {t('rail.soldOut')}</span>}
                  </span>
                </span>
                {canPresent && (
                  <span className="room-rail__actions">
                    <button
                      type="button"
                      className={`studio-button${isPresented ? '' : ' studio-button--primary'}`}
                      aria-pressed={isPresented}
                      disabled={busy === item.uid}
                      aria-keyshortcuts={index < 9 ? String(index + 1) : undefined}
                      onClick={() => void toggle(item)}
                    >
                      {isPresented ? t('rail.stop') : t('rail.present')}
                      <span className="visually-hidden"> {item.name}</span>
                    </button>
                    {!isSoldOut && (
                      <ConfirmButton
                        className="studio-button--quiet"
                        title={t('rail.soldOutTitle')}
                        message={t('rail.soldOutMessage', { name: item.name })}
                        confirmLabel={t('rail.soldOutConfirm')}
                        onConfirm={async () => {
                          await staffCall('markProductSoldOut', {
                            params: { ...params, productUid: item.uid },
                          });
                          onSoldOut();
                        }}
                      >
                        {t('rail.markSoldOut')}
                        <span className="visually-hidden"> {item.name}</span>
                      </ConfirmButton>
                    )}
                  </span>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
