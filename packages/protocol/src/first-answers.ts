/**
 * A public page's first answers (issue 32, mobile LCP): the server puts the answers to the reads
 * the app makes before its first paint (the store, its shows, a show's products, a clip) in the
 * page, as JSON in this element, so the app paints without a round trip after its script has run.
 */
export const FIRST_ANSWERS_ELEMENT_ID = 'vitrine-first-answers';

/**
 * The name of one read's answer in that element: the read (or call) name and its parameters as
 * the app sends them, so an answer is only ever used for the very request it answers.
 */
export const firstAnswerKey = (name: string, params: unknown): string => `${name} ${JSON.stringify(params)}`;

/** The calls (not reads) among them: a public page's store, and a clip's page its clip. */
export const FIRST_ANSWER_CALLS = ['storeInfo', 'getClip'] as const;
export type FirstAnswerCall = (typeof FIRST_ANSWER_CALLS)[number];
