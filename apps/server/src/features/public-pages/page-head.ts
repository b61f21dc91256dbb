/**
 * What the server writes into the `<head>` of a public page: everything search engines and
 * chat apps read without running the app. Every URL is absolute.
 */
export interface PageHead {
  /** Which of the app's pages it heads (the server preloads that route's code). */
  page: 'shop' | 'show' | 'clip';
  /** The page's language (`<html lang>`, og:locale). */
  lang: string;
  title: string;
  description: string;
  canonicalUrl: string;
  /** `hreflang` alternates: one per language the store sells in, plus `x-default`. */
  alternates: readonly { hreflang: string; href: string }[];
  /** The store's logo, as the page's icon; null keeps the app's own icon. */
  icon: string | null;
  /**
   * The pictures at the top of the page (the shop page's lead cover and the store's logo beside
   * its name, a show's poster), fetched from the head instead of once the app has rendered; as the
   * app requests them (relative URLs stay so, or the browser would not reuse them). High priority
   * where it is the page's largest paint on every screen (the shop page's cover); a show's poster is
   * on desktops only, and on a phone it must not delay the scripts that paint the title. The logo
   * has no size the page can reserve before it arrives: fetched late, it moved the header's text.
   */
  preloadImages: readonly { url: string; highPriority: boolean }[];
  openGraph: {
    type: 'website' | 'video.other';
    siteName: string;
    /** og:locale form: `da_DK`. */
    locale: string;
    alternateLocales: readonly string[];
    /** The cover, poster or logo, with a text for who cannot see it. */
    image: (MediaMeta & { alt: string }) | null;
    /** A video file a chat app can play inline (MP4), for replays that have one. */
    video: (MediaMeta & { type: string }) | null;
  };
  /** A player card when the store lets Twitter/X frame the player; else a large image card. */
  twitterPlayer: { url: string; width: number; height: number } | null;
  /** JSON-LD objects, each with its own `@context`. */
  structuredData: readonly object[];
}

export interface MediaMeta {
  url: string;
  width: number | null;
  height: number | null;
}

/** Text for an HTML attribute value or element content: the five characters that can end either. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/**
 * JSON for a `<script type="application/ld+json">` element: `<`, `>` and `&` as JSON escapes, so
 * no text in it can close the element or open a comment (`</script>`, `<!--`), and the line
 * separators JavaScript parsers once rejected as well. The JSON value is unchanged.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

const meta = (attribute: 'name' | 'property', key: string, content: string | number) =>
  `<meta ${attribute}="${key}" content="${escapeHtml(String(content))}">`;

function mediaTags(prefix: 'og:image' | 'og:video', media: MediaMeta): string[] {
  const tags = [meta('property', prefix, media.url)];
  if (media.url.startsWith('https:')) tags.push(meta('property', `${prefix}:secure_url`, media.url));
  if (media.width !== null && media.height !== null)
    tags.push(
      meta('property', `${prefix}:width`, media.width),
      meta('property', `${prefix}:height`, media.height),
    );
  return tags;
}

/** The head's elements as HTML, in place of the app's `<title>`; every value escaped. */
export function renderPageHead(head: PageHead): string {
  const { openGraph: og } = head;
  const tags = [
    `<title>${escapeHtml(head.title)}</title>`,
    meta('name', 'description', head.description),
    `<link rel="canonical" href="${escapeHtml(head.canonicalUrl)}">`,
    ...head.alternates.map(
      (alternate) =>
        `<link rel="alternate" hreflang="${escapeHtml(alternate.hreflang)}" href="${escapeHtml(alternate.href)}">`,
    ),
    ...(head.icon ? [`<link rel="icon" href="${escapeHtml(head.icon)}">`] : []),
    ...head.preloadImages.map(
      (image) =>
        `<link rel="preload" as="image" href="${escapeHtml(image.url)}"${image.highPriority ? ' fetchpriority="high"' : ''}>`,
    ),
    meta('property', 'og:type', og.type),
    meta('property', 'og:site_name', og.siteName),
    meta('property', 'og:title', head.title),
    meta('property', 'og:description', head.description),
    meta('property', 'og:url', head.canonicalUrl),
    meta('property', 'og:locale', og.locale),
    ...og.alternateLocales.map((locale) => meta('property', 'og:locale:alternate', locale)),
    ...(og.image ? [...mediaTags('og:image', og.image), meta('property', 'og:image:alt', og.image.alt)] : []),
    ...(og.video
      ? [...mediaTags('og:video', og.video), meta('property', 'og:video:type', og.video.type)]
      : []),
    meta(
      'name',
      'twitter:card',
      head.twitterPlayer ? 'player' : og.image ? 'summary_large_image' : 'summary',
    ),
    meta('name', 'twitter:title', head.title),
    meta('name', 'twitter:description', head.description),
    ...(og.image
      ? [meta('name', 'twitter:image', og.image.url), meta('name', 'twitter:image:alt', og.image.alt)]
      : []),
    ...(head.twitterPlayer
      ? [
          meta('name', 'twitter:player', head.twitterPlayer.url),
          meta('name', 'twitter:player:width', head.twitterPlayer.width),
          meta('name', 'twitter:player:height', head.twitterPlayer.height),
        ]
      : []),
  ];
  if (head.structuredData.length > 0)
    tags.push(`<script type="application/ld+json">${scriptSafeJson(head.structuredData)}</script>`);
  return tags.join('\n    ');
}
