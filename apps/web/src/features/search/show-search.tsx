import { formatDuration, SEARCH_TEXT_MAX_LENGTH, searchTerms } from '@vitrine/domain';
import type { ShowSearchHit, ShowSearchResults, ShowSearchShow } from '@vitrine/protocol';
import { EMBED_QUERY } from '@vitrine/protocol/embed-query';
import type { EventCurrentStatus } from '@vitrine/protocol/vocabulary';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { call } from '../../lib/api.ts';
import { logFailure } from '../../lib/debug.ts';
import { registerNamespaceLoader } from '../../lib/i18n.ts';
import { useLocale } from '../../lib/use-locale.ts';
import './show-search.css';

// The search's texts load with its code, never with the player's first bundle.
registerNamespaceLoader('search', (language) => import(`../../locales/search/${language}.json`));

/** The page's query parameter holding the search text: a reload or a shared link keeps the search. */
const SEARCH_QUERY_PARAM = EMBED_QUERY.search;
/** How long typing pauses before the search is sent (each pause is one request, not each key). */
const TYPING_PAUSE_MS = 300;

type SearchState =
  | { status: 'idle' }
  | { status: 'loading'; previous: ShowSearchResults | null }
  | { status: 'done'; results: ShowSearchResults }
  | { status: 'failed' };

/** One product in one show: a line of the results. */
interface Moment {
  hit: ShowSearchHit;
  show: ShowSearchShow;
}

const GROUPS: readonly { state: EventCurrentStatus; title: string }[] = [
  { state: 'live', title: 'shop.liveNow' },
  { state: 'planned', title: 'shop.upcoming' },
  { state: 'vod', title: 'shop.onDemand' },
];

/**
 * The front page's search across the store's shows (issue 32 item 5): a labelled search box whose
 * text lives in the page's `?q=`, results grouped live / upcoming / recorded, each a link to the
 * show, a recording opening at the product's moment. The count is announced (a live region);
 * arrow keys move between the input and the results.
 */
export default function ShowSearch({ pageUid }: { pageUid: string }) {
  const { t } = useTranslation('search', { useSuspense: true });
  const { t: tShop } = useTranslation();
  const format = useLocale();
  const [params, setParams] = useSearchParams();
  const query = params.get(SEARCH_QUERY_PARAM) ?? '';
  const [text, setText] = useState(query);
  const [state, setState] = useState<SearchState>({ status: 'idle' });
  const inputId = useId();
  const resultsRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  const applyText = (value: string) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value.trim()) next.set(SEARCH_QUERY_PARAM, value.trim());
        else next.delete(SEARCH_QUERY_PARAM);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  };

  // The URL follows the typing after a pause, and the search follows the URL.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the text's changes start a pause
  useEffect(() => {
    if (text.trim() === query) return;
    const timer = setTimeout(() => applyText(text), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const language = format.locale;
  useEffect(() => {
    if (searchTerms(query).length === 0) {
      setState({ status: 'idle' });
      return;
    }
    let cancelled = false;
    setState((previous) => ({
      status: 'loading',
      previous: previous.status === 'done' ? previous.results : null,
    }));
    call('searchShows', { text: query, pageUid, lang: language }).then(
      (results) => {
        if (!cancelled) setState({ status: 'done', results });
      },
      (error: unknown) => {
        logFailure('searching the shows failed', error);
        if (!cancelled) setState({ status: 'failed' });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [query, pageUid, language]);

  const loadMore = async (results: ShowSearchResults) => {
    try {
      const next = await call('searchShows', {
        text: query,
        pageUid,
        lang: language,
        page: results.page + 1,
      });
      setState({ status: 'done', results: { ...next, hits: [...results.hits, ...next.hits] } });
    } catch (error) {
      logFailure('searching the shows failed', error);
      setState({ status: 'failed' });
    }
  };

  const shown = state.status === 'done' ? state.results : state.status === 'loading' ? state.previous : null;
  const status =
    state.status === 'loading'
      ? t('searching')
      : state.status === 'failed'
        ? t('failed')
        : state.status === 'done'
          ? state.results.hits.length === 0
            ? t('none', { text: query })
            : t('found', { count: state.results.hits.length })
          : '';

  /** Up and down arrows move through the input and the result links, in page order. */
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const links = [...(resultsRef.current?.querySelectorAll<HTMLAnchorElement>('a.search-hit') ?? [])];
    if (links.length === 0) return;
    const stops: HTMLElement[] = [...(inputRef.current ? [inputRef.current] : []), ...links];
    const at = stops.indexOf(document.activeElement as HTMLElement);
    const next = stops[Math.min(stops.length - 1, Math.max(0, at + (event.key === 'ArrowDown' ? 1 : -1)))];
    if (next) {
      event.preventDefault();
      next.focus();
    }
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the arrow keys only move the focus between links and the input
    <div className="show-search" onKeyDown={onKeyDown}>
      <search>
        <form
          className="show-search__form"
          onSubmit={(event) => {
            event.preventDefault();
            applyText(text);
          }}
        >
          <label htmlFor={inputId} className="show-search__label">
            {t('label')}
          </label>
          <div className="show-search__row">
            <input
              ref={inputRef}
              id={inputId}
              className="show-search__input"
              type="search"
              name={SEARCH_QUERY_PARAM}
              autoComplete="off"
              enterKeyHint="search"
              maxLength={SEARCH_TEXT_MAX_LENGTH}
              value={text}
              onChange={(event) => setText(event.currentTarget.value)}
            />
            <button type="submit" className="button show-search__submit">
              {t('submit')}
            </button>
          </div>
        </form>
      </search>

      <div ref={resultsRef} className="show-search__results">
        {/* Always present, so screen readers announce each new count. */}
        <p className="show-search__status" role="status" aria-live="polite">
          {status}
        </p>
        {shown && shown.hits.length > 0 && (
          <section aria-labelledby={`${inputId}-title`} className="show-search__panel" data-search-results="">
            <h2 id={`${inputId}-title`} className="show-search__title">
              {t('title')}
            </h2>
            {GROUPS.map(({ state: group, title }) => {
              const moments: Moment[] = shown.hits.flatMap((hit) =>
                hit.shows.filter((show) => show.state === group).map((show) => ({ hit, show })),
              );
              if (moments.length === 0) return null;
              return (
                <section key={group} className="show-search__group" data-search-group={group}>
                  <h3 className="show-search__group-title">{tShop(title)}</h3>
                  <ul className="show-search__list">
                    {moments.map(({ hit, show }) => (
                      <li key={`${hit.product.uid}:${show.eventId}`}>
                        <Link className="search-hit" to={show.path} data-event={show.eventId}>
                          {hit.product.image ? (
                            <img
                              className="search-hit__image"
                              src={hit.product.image}
                              alt=""
                              loading="lazy"
                            />
                          ) : (
                            <span className="search-hit__image" aria-hidden="true" />
                          )}
                          <span className="search-hit__text">
                            <span className="search-hit__product">{hit.product.name}</span>
                            <span className="search-hit__show">{show.eventName}</span>
                            <span className="search-hit__when">
                              {show.state === 'vod' && show.offset !== null
                                ? t('presentedAt', { time: formatDuration(show.offset) })
                                : show.state === 'planned'
                                  ? t('startsAt', { time: format.dateTime(show.eventStartTimestamp) })
                                  : tShop(`shop.status.${show.state}`)}
                            </span>
                          </span>
                        </Link>
                      </li>
                    ))}
                  </ul>
                </section>
              );
            })}
            {state.status === 'done' && state.results.more && (
              <button
                type="button"
                className="button button--secondary show-search__more"
                onClick={() => void loadMore(state.results)}
              >
                {t('more')}
              </button>
            )}
          </section>
        )}
      </div>
    </div>
  );
}
