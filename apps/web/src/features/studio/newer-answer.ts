/**
 * Whether the answer to request number `request` may replace what is shown: it must be for the
 * current input (numbered from `firstForInput` on) and newer than the answer shown (`shown`). An
 * answer to an earlier request still counts when a later one is in flight: a page that reloads
 * every second on a server answering in more than a second would otherwise never show anything new.
 */
export function answerIsNewer(request: number, shown: number, firstForInput: number): boolean {
  return request >= firstForInput && request > shown;
}
