import {
  createContext,
  type ImgHTMLAttributes,
  type ReactNode,
  useCallback,
  useContext,
  useState,
} from 'react';
import { afterNextPaint } from '../../lib/after-next-paint.ts';

/**
 * Whether the page's largest paint (its lead cover) is on screen, and how its cover says so.
 *
 * On a phone the shop page's pictures below the fold are `loading=lazy` but within Chromium's
 * lazy-load distance of the viewport, so they were fetched together with the lead cover: on a slow
 * connection ~100 KB of them shared the line with the cover and the app's script
 * (bench/lighthouse/README.md). Those pictures now wait for the lead cover.
 */
interface LeadPaint {
  painted: boolean;
  /** For the lead cover's error event: its picture is as painted as it will be. */
  leadSettled: () => void;
  /** For the lead cover's load event: it is painted once it is on screen (whenLeadCoverShown). */
  leadLoaded: () => void;
}

/** Outside a page that has a lead cover, nothing waits. */
const LeadPaintContext = createContext<LeadPaint>({
  painted: true,
  leadSettled: () => {},
  leadLoaded: () => {},
});

/** The lead cover's Element Timing name (its `elementtiming` attribute). */
const LEAD_COVER_TIMING = 'lead-cover';
/** How long the pictures wait for the lead cover's paint to be reported at most. */
const LEAD_PAINT_WAIT_BOUND_MS = 1000;

/**
 * Calls `callback` once the loaded lead cover is on screen: Element Timing reports the picture
 * once its frame has been presented (a load event comes before the frame that shows the picture,
 * and a frame's callbacks before it reaches the screen, so what started then still came before the
 * page's largest paint). A browser without Element Timing waits for the next frame instead; one
 * that paints nothing (a hidden tab) a second at most.
 */
function whenLeadCoverShown(callback: () => void): void {
  if (!PerformanceObserver.supportedEntryTypes?.includes('element')) {
    afterNextPaint(callback);
    return;
  }
  let done = false;
  const settle = () => {
    if (done) return;
    done = true;
    observer.disconnect();
    callback();
  };
  const observer = new PerformanceObserver((list) => {
    const shown = list
      .getEntries()
      .some(
        (entry) => (entry as PerformanceEntry & { identifier?: string }).identifier === LEAD_COVER_TIMING,
      );
    if (shown) settle();
  });
  observer.observe({ type: 'element', buffered: true });
  setTimeout(settle, LEAD_PAINT_WAIT_BOUND_MS);
}

/**
 * Holds the pictures below the fold back until the lead cover has loaded and been painted. A page
 * with no lead cover (`hasLeadCover` false: no show, or a show without a cover) holds nothing.
 */
export function LeadPaintProvider({
  hasLeadCover,
  children,
}: {
  hasLeadCover: boolean;
  children: ReactNode;
}) {
  const [settled, setSettled] = useState(false);
  const leadSettled = useCallback(() => afterNextPaint(() => setSettled(true)), []);
  const leadLoaded = useCallback(() => whenLeadCoverShown(() => setSettled(true)), []);
  const painted = settled || !hasLeadCover;
  return (
    <LeadPaintContext.Provider value={{ painted, leadSettled, leadLoaded }}>
      {children}
    </LeadPaintContext.Provider>
  );
}

/** Whether the lead cover is on screen (or the page has none): what waits for it may come now. */
export function useLeadPainted(): boolean {
  return useContext(LeadPaintContext).painted;
}

/** The lead cover's handlers and timing name: it tells the page when it is on screen (or failed to load). */
export function useLeadCoverEvents(): Pick<ImgHTMLAttributes<HTMLImageElement>, 'onLoad' | 'onError'> & {
  elementtiming: string;
} {
  const { leadSettled, leadLoaded } = useContext(LeadPaintContext);
  return { onLoad: leadLoaded, onError: leadSettled, elementtiming: LEAD_COVER_TIMING };
}

/**
 * A picture below the fold: lazy, and without its address (so not fetched) until the lead cover
 * has been painted. Its box keeps its size meanwhile (the styles size the element, not the
 * picture), so nothing moves when it arrives. Its text alternative comes with its picture.
 */
export function AfterLeadImage({ src, alt, ...rest }: ImgHTMLAttributes<HTMLImageElement> & { src: string }) {
  return useLeadPainted() ? (
    <img src={src} alt={alt} loading="lazy" {...rest} />
  ) : (
    <img alt="" data-waits-for-lead-paint="" {...rest} />
  );
}
