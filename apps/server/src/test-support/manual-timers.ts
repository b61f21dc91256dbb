import type { ScheduleTimer } from '../schedule-timer.ts';

/**
 * Timers that fire only when the test says so: `schedule` records each one, `fireAll` runs
 * those still pending and resolves when their work is done. A test sees timed work happen
 * without waiting for its delay.
 */
export function manualTimers() {
  const pending = new Map<number, { callback: () => void | Promise<void>; delayMs: number }>();
  let nextId = 0;
  const schedule: ScheduleTimer = (callback, delayMs) => {
    const id = nextId++;
    pending.set(id, { callback, delayMs });
    return () => pending.delete(id);
  };
  return {
    schedule,
    /** The delays of the timers not yet fired or cancelled, in the order they were started. */
    pendingDelays: (): number[] => [...pending.values()].map((timer) => timer.delayMs),
    async fireAll(): Promise<void> {
      const due = [...pending.values()];
      pending.clear();
      await Promise.all(due.map((timer) => timer.callback()));
    },
  };
}
