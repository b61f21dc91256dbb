/**
 * Pure rules of staff invitations (issue 33 §2): an invitation is bound to the address it was
 * sent to, and its link shows that address only as a hint to whoever holds the link.
 */

/** E-mail addresses compared as the accounts store them: trimmed, lower case. */
const canonicalAddress = (address: string) => address.trim().toLowerCase();

/**
 * Whether an account may accept an invitation sent to `invited`: its address is that one. The
 * link went to that mailbox, so holding it and an account of that address (or creating one with
 * it) proves the address; any other account, however signed in, is refused.
 */
export function isInvitedAddress(invited: string, accountAddress: string | null): boolean {
  return accountAddress !== null && canonicalAddress(accountAddress) === canonicalAddress(invited);
}

const HIDDEN = '•••';

/**
 * The invited address as the link's page shows it: enough for the invited person to recognise
 * it ("j•••@e•••.com"), too little for someone who found the link to learn whom the store
 * invited.
 */
export function maskedAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return HIDDEN;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const maskedDomain = dot > 0 ? `${[...domain][0]}${HIDDEN}${domain.slice(dot)}` : HIDDEN;
  return `${[...local][0]}${HIDDEN}@${maskedDomain}`;
}
