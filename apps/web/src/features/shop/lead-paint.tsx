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
  /** For the lead cover's load and error events: its picture is as painted as it will be. */
  leadSettled: () => void;
}

/** Outside a page that has a lead cover, nothing waits. */
const LeadPaintContext = createContext<LeadPaint>({ painted: true, leadSettled: () => {} });

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
  const painted = settled || !hasLeadCover;
  return <LeadPaintContext.Provider value={{ painted, leadSettled }}>{children}</LeadPaintContext.Provider>;
}

/** Whether the lead cover is on screen (or the page has none): what waits for it may come now. */
export function useLeadPainted(): boolean {
  return useContext(LeadPaintContext).painted;
}

/** The lead cover's handlers: it tells the page when it has loaded (or failed to). */
export function useLeadCoverEvents(): Pick<ImgHTMLAttributes<HTMLImageElement>, 'onLoad' | 'onError'> {
  const { leadSettled } = useContext(LeadPaintContext);
  return { onLoad: leadSettled, onError: leadSettled };
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
