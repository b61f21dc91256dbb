/**
 * The route without its checkout, for logging out (spec §2: unloading the cart returns to the
 * no-checkout variant of the widget route).
 */
export function withoutCheckout(pathname: string, checkoutUid: string | undefined): string | null {
  if (!checkoutUid) return null;
  const suffixes = [`/checkout/${checkoutUid}`, `/${checkoutUid}`];
  for (const suffix of suffixes) {
    if (pathname.endsWith(suffix)) return pathname.slice(0, -suffix.length) || '/';
  }
  return null;
}

/** Only same-site paths may be returned to after signing in (never another origin). */
export function safeReturnPath(next: string | null): string | null {
  return next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : null;
}
