import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { INTERACTION_NAMESPACE } from '../../lib/i18n.ts';

/** The interaction texts first, then the app's (player.*, app.*). */
const NAMESPACES = [INTERACTION_NAMESPACE, 'translation'];

/** `t` of the chat, account and competition parts: the interaction namespace, then the app's texts. */
export const useInteractionTranslation = () =>
  useTranslation(NAMESPACES, { nsMode: 'fallback', useSuspense: false });

/** Loads the interaction namespace of the current language (and English) before its parts render. */
export const loadInteractionTexts = () => i18next.loadNamespaces(INTERACTION_NAMESPACE);
