import { useTranslation } from 'react-i18next';

/**
 * The studio's texts, one i18next namespace (a folder of locales/) per section, each loaded with
 * its section's code: `studio` (the shell and shared parts), `studio-catalogue`, `studio-shows`,
 * `studio-orders` and `studio-settings`.
 */
export type StudioNamespace =
  | 'studio'
  | 'studio-catalogue'
  | 'studio-shows'
  | 'studio-orders'
  | 'studio-settings';

/** Texts of a studio section, with the shell's as the fallback namespace (`studio:…` keys). */
export function useStudioTranslation(namespace: StudioNamespace = 'studio') {
  return useTranslation(namespace === 'studio' ? ['studio'] : [namespace, 'studio'], { useSuspense: true });
}
