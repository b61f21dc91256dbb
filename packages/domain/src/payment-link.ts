/**
 * In-app browsers of social networks on iOS (Facebook, Instagram, TikTok, Snapchat, LinkedIn,
 * Pinterest, Line, X/Twitter) identify themselves in the user agent. Payment pages often fail in
 * them (wallets, 3-D Secure pop-ups), so payment links are sent to Safari instead.
 */
const SOCIAL_IN_APP_BROWSER =
  /\bFBAN\/|\bFBAV\/|\bFB_IAB\/|\bInstagram\b|\bmusical_ly_|\bBytedanceWebview\b|\bTikTok\b|\bSnapchat\b|\bLinkedInApp\b|\bPinterest\b|\bLine\/|\bTwitter\b/;
const IOS = /\b(iPhone|iPad|iPod)\b/;

/** Whether a user agent is the in-app browser of a social network on iOS. */
export const isIosSocialInAppBrowser = (userAgent: string) =>
  IOS.test(userAgent) && SOCIAL_IN_APP_BROWSER.test(userAgent);

/**
 * The link to open for a payment URL (spec §7): inside an iOS social in-app browser, a secure
 * `https:` link gets Safari's `x-safari-https:` scheme so it opens in the external browser;
 * everything else is returned unchanged.
 */
export function paymentLinkForBrowser(url: string, userAgent: string): string {
  if (!isIosSocialInAppBrowser(userAgent)) return url;
  return url.replace(/^https:\/\//i, 'x-safari-https://');
}
