/**
 * Runs `callback` once after `delayMs`; the returned function cancels it. Timed work that a test
 * must see happen (the test payment provider's confirmation) takes one, so the test fires it
 * instead of waiting out the delay.
 */
export type ScheduleTimer = (callback: () => void | Promise<void>, delayMs: number) => () => void;

/** The real clock's timer. */
export const scheduleRealTimer: ScheduleTimer = (callback, delayMs) => {
  const timer = setTimeout(() => void callback(), delayMs);
  return () => clearTimeout(timer);
};
