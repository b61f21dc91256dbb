import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { CHECKOUT_NAMESPACE } from '../../lib/i18n.ts';

/** The checkout screens' texts first, then the app's (the player's cart texts, app.*, notFound.*). */
const NAMESPACES = [CHECKOUT_NAMESPACE, 'translation'];

/** `t` of the checkout screens: looks in the checkout namespace, then in the app's translation. */
export const useCheckoutTranslation = () =>
  useTranslation(NAMESPACES, { nsMode: 'fallback', useSuspense: false });

/** Loads the checkout namespace of the current language (and English, its fallback) before a screen renders. */
export const loadCheckoutTexts = () => i18next.loadNamespaces(CHECKOUT_NAMESPACE);
