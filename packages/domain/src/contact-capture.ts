/**
 * Contact step of spec §5 for social-live viewers (/tiktok routes): the messages exactly as the
 * spec words them, and the rule that decides which apply. The server and the form share it.
 */

import type { ContactProblem } from './vocabulary.ts';

export const CONTACT_MESSAGES = {
  phoneOrEmail: 'A phone number or an e-mail address is required.',
  consent: 'The terms must be accepted.',
  name: 'Anonymous participation requires a name.',
} as const satisfies Record<ContactProblem, string>;

export interface ContactInput {
  name?: string | null | undefined;
  phone?: string | null | undefined;
  email?: string | null | undefined;
  consent: boolean;
}

const filled = (value: string | null | undefined) => (value ?? '').trim() !== '';

/** What is missing, in the order the form shows it; empty when the contact can be stored. */
export function contactProblems(input: ContactInput, viewerIsAnonymous: boolean): ContactProblem[] {
  const problems: ContactProblem[] = [];
  if (!filled(input.phone) && !filled(input.email)) problems.push('phoneOrEmail');
  if (!input.consent) problems.push('consent');
  if (viewerIsAnonymous && !filled(input.name)) problems.push('name');
  return problems;
}
