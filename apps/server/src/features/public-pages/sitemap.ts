/** One page of the sitemap: its canonical path, when it last changed, the languages it is in. */
export interface SitemapEntry {
  path: string;
  lastModified: number;
  /** The store's languages: each is a version of the page at `?lang=`, beside the plain x-default. */
  languages: readonly string[];
}

const escapeXml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');

/** A W3C datetime to the second, as sitemaps take it. */
const w3cDateTime = (timestamp: number) => `${new Date(timestamp).toISOString().slice(0, 19)}Z`;

/**
 * The sitemap (sitemaps.org) of the entries on `origin`: every language version is a `<url>` of
 * its own, and each names all versions with `xhtml:link` alternates, itself included (the form
 * search engines ask for).
 */
export function renderSitemap(entries: readonly SitemapEntry[], origin: string): string {
  const urls = entries.flatMap((entry) => {
    const plain = `${origin}${entry.path}`;
    const versions = [
      ...entry.languages.map((language) => ({ hreflang: language, href: `${plain}?lang=${language}` })),
      { hreflang: 'x-default', href: plain },
    ];
    const links = versions.map(
      (version) =>
        `    <xhtml:link rel="alternate" hreflang="${escapeXml(version.hreflang)}" href="${escapeXml(version.href)}"/>`,
    );
    return versions.map((version) =>
      [
        '  <url>',
        `    <loc>${escapeXml(version.href)}</loc>`,
        `    <lastmod>${w3cDateTime(entry.lastModified)}</lastmod>`,
        ...links,
        '  </url>',
      ].join('\n'),
    );
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}
