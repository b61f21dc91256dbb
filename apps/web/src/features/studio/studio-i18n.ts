import { useTranslation } from 'react-i18next';
import { registerNamespaceLoader } from '../../lib/i18n.ts';

/**
 * The studio's texts, one i18next namespace (a folder of locales/) per section, each loaded with
 * its section's code: `studio` (the shell and shared parts), `studio-catalogue`, `studio-shows`,
 * `studio-live`, `studio-restream`, `studio-control-room`, `studio-orders`, `studio-analytics` and `studio-settings`.
 */
export type StudioNamespace =
  | 'studio'
  | 'studio-catalogue'
  | 'studio-shows'
  | 'studio-live'
  | 'studio-restream'
  | 'studio-moderation'
  | 'studio-control-room'
  | 'studio-orders'
  | 'studio-analytics'
  | 'studio-settings';

// The studio's files load through the studio's own code, not the player's first bundle.
registerNamespaceLoader(
  'studio',
  (language, namespace) => import(`../../locales/studio${namespace.slice('studio'.length)}/${language}.json`),
);

/** Texts of a studio section, with the shell's as the fallback namespace (`studio:…` keys). */
export function useStudioTranslation(namespace: StudioNamespace = 'studio') {
  return useTranslation(namespace === 'studio' ? ['studio'] : [namespace, 'studio'], { useSuspense: true });
}
