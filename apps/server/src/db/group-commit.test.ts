import { describe, expect, it } from 'vitest';
import { createGroupCommit, type JobOutcome } from './group-commit.ts';

/** A batch runner whose batches end when the test says so. */
function controlledRunner() {
  const batches: {
    jobs: number[];
    finish: (outcomes?: JobOutcome<string>[]) => void;
    fail: (e: unknown) => void;
  }[] = [];
  let started: () => void = () => {};
  const run = (jobs: number[]) =>
    new Promise<JobOutcome<string>[]>((resolve, reject) => {
      batches.push({
        jobs,
        finish: (outcomes) => resolve(outcomes ?? jobs.map((job) => ({ ok: true, value: `done ${job}` }))),
        fail: reject,
      });
      started();
    });
  const nextBatch = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (batches.length >= count) resolve();
      };
      started = check;
      check();
    });
  return { batches, run, nextBatch };
}

describe('group commit', () => {
  it('runs the first job at once and the jobs that arrive meanwhile as one batch, in arrival order', async () => {
    const runner = controlledRunner();
    const group = createGroupCommit({ run: runner.run, maxBatch: 10, conflict: String });
    const first = group.submit('hot', 1);
    await runner.nextBatch(1);
    expect(runner.batches[0]?.jobs).toEqual([1]);
    const later = [2, 3, 4].map((job) => group.submit('hot', job));
    const otherKey = group.submit('cold', 9);
    await runner.nextBatch(2);
    // Another key does not wait for "hot".
    expect(runner.batches[1]?.jobs).toEqual([9]);
    runner.batches[1]?.finish();
    expect(await otherKey).toBe('done 9');
    runner.batches[0]?.finish();
    expect(await first).toBe('done 1');
    await runner.nextBatch(3);
    expect(runner.batches[2]?.jobs).toEqual([2, 3, 4]);
    runner.batches[2]?.finish([
      { ok: true, value: 'two' },
      { ok: false, error: new Error('three refused') },
      { ok: true, value: 'four' },
    ]);
    const settled = await Promise.allSettled(later);
    expect(
      settled.map((result) => (result.status === 'fulfilled' ? result.value : String(result.reason))),
    ).toEqual(['two', 'Error: three refused', 'four']);
  });

  it('takes the jobs that arrived in the same turn into the first batch, caps a batch at maxBatch, and gives every job of a failed batch its error', async () => {
    const runner = controlledRunner();
    const group = createGroupCommit({ run: runner.run, maxBatch: 2, conflict: String });
    const jobs = [1, 2, 3, 4, 5].map((job) => group.submit('hot', job));
    await runner.nextBatch(1);
    expect(runner.batches[0]?.jobs).toEqual([1, 2]);
    runner.batches[0]?.fail(new Error('connection lost'));
    await runner.nextBatch(2);
    expect(runner.batches[1]?.jobs).toEqual([3, 4]);
    runner.batches[1]?.finish();
    await runner.nextBatch(3);
    expect(runner.batches[2]?.jobs).toEqual([5]);
    runner.batches[2]?.finish();
    const settled = await Promise.allSettled(jobs);
    expect(
      settled.map((result) => (result.status === 'fulfilled' ? result.value : String(result.reason))),
    ).toEqual(['Error: connection lost', 'Error: connection lost', 'done 3', 'done 4', 'done 5']);
  });

  it('never puts two jobs with one conflict key in a batch: the later waits for the next, in order', async () => {
    const runner = controlledRunner();
    // Jobs 11 and 12 are one shopper's (conflict key 1), as are 21 and 22 (key 2).
    const group = createGroupCommit({
      run: runner.run,
      maxBatch: 10,
      conflict: (job: number) => String(Math.floor(job / 10)),
    });
    const jobs = [11, 21, 12, 31, 22, 13].map((job) => group.submit('hot', job));
    await runner.nextBatch(1);
    expect(runner.batches[0]?.jobs).toEqual([11, 21, 31]);
    runner.batches[0]?.finish();
    await runner.nextBatch(2);
    expect(runner.batches[1]?.jobs).toEqual([12, 22]);
    runner.batches[1]?.finish();
    await runner.nextBatch(3);
    expect(runner.batches[2]?.jobs).toEqual([13]);
    runner.batches[2]?.finish();
    expect(await Promise.all(jobs)).toEqual([
      'done 11',
      'done 21',
      'done 12',
      'done 31',
      'done 22',
      'done 13',
    ]);
  });
});
