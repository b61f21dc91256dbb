/** What one job of a batch came to: its value, or the error it alone would have thrown. */
export type JobOutcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

/**
 * Group commit per key: while a batch for a key runs, jobs for that key queue up, and when it
 * ends they run together as the next batch. The first job of a quiet key waits only for the
 * event loop's next turn (setImmediate, no timer), so a lone caller waits for nothing; under load
 * a batch is as large as what arrived meanwhile, at most `maxBatch`. Keys are independent:
 * batches of different keys run side by side. (Two batches of a key at once were tried for the
 * flash sale: no more adds a second, a longer tail; bench/checkout/README.md.)
 *
 * Why the turn: PGlite runs in this thread and its statements resolve without the event loop
 * turning, so one request's whole work would finish before the next request's socket is even
 * read, and no second job would ever find a batch to join. Yielding one turn lets requests that
 * already arrived reach the queue first.
 *
 * Jobs with the same `conflict` key (one shopper's cart, say) never share a batch: a later one
 * waits for a later batch, keeping their order. `run` gets a batch's jobs in arrival order and
 * answers one outcome per job, in the same order; when it throws, every job of the batch gets
 * that error.
 */
export function createGroupCommit<J, R>(options: {
  run: (jobs: J[]) => Promise<JobOutcome<R>[]>;
  maxBatch: number;
  conflict: (job: J) => string;
}) {
  interface Waiting {
    job: J;
    resolve: (value: R) => void;
    reject: (error: unknown) => void;
  }
  /** Per key, the jobs waiting for the next batch; a key is present from its first job until its queue is empty. */
  const queues = new Map<string, Waiting[]>();

  /** Takes the next batch out of `queue`: in arrival order, one job per conflict key, at most maxBatch. */
  function nextBatch(queue: Waiting[]): Waiting[] {
    const batch: Waiting[] = [];
    const taken = new Set<string>();
    const left: Waiting[] = [];
    for (const waiting of queue) {
      const conflict = options.conflict(waiting.job);
      if (batch.length < options.maxBatch && !taken.has(conflict)) batch.push(waiting);
      else left.push(waiting);
      // A job left behind keeps its key's later jobs behind it too (their order stays).
      taken.add(conflict);
    }
    queue.splice(0, queue.length, ...left);
    return batch;
  }

  async function drain(key: string): Promise<void> {
    for (;;) {
      const queue = queues.get(key) ?? [];
      if (queue.length === 0) {
        queues.delete(key);
        return;
      }
      const batch = nextBatch(queue);
      let outcomes: JobOutcome<R>[];
      try {
        outcomes = await options.run(batch.map((waiting) => waiting.job));
        if (outcomes.length !== batch.length) throw new Error('group commit: one outcome per job');
      } catch (error) {
        outcomes = batch.map(() => ({ ok: false, error }));
      }
      for (const [index, waiting] of batch.entries()) {
        const outcome = outcomes[index] as JobOutcome<R>;
        if (outcome.ok) waiting.resolve(outcome.value);
        else waiting.reject(outcome.error);
      }
    }
  }

  return {
    submit(key: string, job: J): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        const waiting = { job, resolve, reject };
        const queue = queues.get(key);
        if (queue) {
          queue.push(waiting);
          return;
        }
        queues.set(key, [waiting]);
        setImmediate(() => void drain(key));
      });
    },
  };
}
