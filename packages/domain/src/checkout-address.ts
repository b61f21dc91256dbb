/**
 * The address and contact record of spec §3 "Address and contact form fields": name, firstName,
 * lastName, address, city, postCode, postcodeAndCity, phone, emailAddress, note, commentField.
 *
 * Design (issue 13 item 19): the shopper types what a shopper expects to type — one full name,
 * street address, post code, city, e-mail, phone and one comment to the shop — and the spec's
 * other fields are derived from those, so they can never disagree with what was typed:
 * - firstName / lastName: the full name split at its last space ("Anna Marie Jensen" → "Anna
 *   Marie" + "Jensen"); a single word is a first name with no last name. A retailer's shipping
 *   label or system that wants the two gets them; the shopper is not asked for their name twice.
 * - postcodeAndCity: post code and city joined by a space, as written on a Nordic address line
 *   ("2100 København Ø").
 * - commentField: the shopper's comment to the shop. The spec names it next to `note` and its
 *   form messages ask for neither, so they are one free-text box: `note` is what the shopper
 *   typed, `commentField` the same text under the spec's name.
 * The server completes the record on every save (`completeCheckoutAddress`), ignoring derived
 * values a client sent.
 */

/** The fields a shopper types in. */
export interface TypedCheckoutAddress {
  name: string;
  address: string;
  postCode: string;
  city: string;
  phone: string;
  emailAddress: string;
  note: string;
}

/** The fields derived from the typed ones. */
export interface DerivedCheckoutAddress {
  firstName: string;
  lastName: string;
  postcodeAndCity: string;
  commentField: string;
}

export type CompleteCheckoutAddress = TypedCheckoutAddress & DerivedCheckoutAddress;

/** A full name split at its last space into first name(s) and last name. */
export function splitFullName(name: string): { firstName: string; lastName: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return { firstName: words[0] ?? '', lastName: '' };
  return { firstName: words.slice(0, -1).join(' '), lastName: words[words.length - 1] ?? '' };
}

/** "2100 København Ø" from post code and city; whichever is filled when only one is. */
export function joinPostcodeAndCity(postCode: string, city: string): string {
  return [postCode.trim(), city.trim()].filter(Boolean).join(' ');
}

/** The record with its derived fields computed from the typed ones (any sent-in ones replaced). */
export function completeCheckoutAddress<T extends TypedCheckoutAddress>(
  address: T,
): T & DerivedCheckoutAddress {
  return {
    ...address,
    ...splitFullName(address.name),
    postcodeAndCity: joinPostcodeAndCity(address.postCode, address.city),
    commentField: address.note.trim(),
  };
}
