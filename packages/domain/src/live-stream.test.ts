import { describe, expect, it } from 'vitest';
import { isOnAir, LIVE_STREAM_STATES, type LiveStreamEvent, nextLiveStreamState } from './live-stream.ts';

const ok = (state: string) => ({ ok: true, state });
const no = (reason: string) => ({ ok: false, reason });

describe('nextLiveStreamState', () => {
  it('runs a show from the first publish to the end', () => {
    expect(nextLiveStreamState('idle', 'publish')).toEqual(ok('receiving'));
    expect(nextLiveStreamState('receiving', 'go-live')).toEqual(ok('live'));
    expect(nextLiveStreamState('live', 'end')).toEqual(ok('ended'));
  });

  it('waits for a dropped encoder of a live show and resumes into it', () => {
    expect(nextLiveStreamState('live', 'publisher-gone')).toEqual(ok('reconnecting'));
    expect(nextLiveStreamState('reconnecting', 'publish')).toEqual(ok('live'));
    expect(nextLiveStreamState('reconnecting', 'grace-expired')).toEqual(ok('ended'));
    expect(nextLiveStreamState('reconnecting', 'end')).toEqual(ok('ended'));
  });

  it('forgets a preview that stops before Go live', () => {
    expect(nextLiveStreamState('receiving', 'publisher-gone')).toEqual(ok('idle'));
  });

  it('refuses a second publisher and anything after the end', () => {
    expect(nextLiveStreamState('receiving', 'publish')).toEqual(no('already-publishing'));
    expect(nextLiveStreamState('live', 'publish')).toEqual(no('already-publishing'));
    for (const event of [
      'publish',
      'publisher-gone',
      'go-live',
      'end',
      'grace-expired',
    ] as LiveStreamEvent[]) {
      expect(nextLiveStreamState('ended', event)).toEqual(no('ended'));
    }
  });

  it('needs a stream to go live and something to end', () => {
    expect(nextLiveStreamState('idle', 'go-live')).toEqual(no('no-publisher'));
    expect(nextLiveStreamState('reconnecting', 'go-live')).toEqual(no('not-live'));
    expect(nextLiveStreamState('idle', 'end')).toEqual(no('not-live'));
    expect(nextLiveStreamState('receiving', 'end')).toEqual(no('not-live'));
  });

  it('ignores a grace that ran out after the encoder came back', () => {
    expect(nextLiveStreamState('live', 'grace-expired')).toEqual(no('not-live'));
  });

  it('shows viewers a live show while it reconnects', () => {
    expect(LIVE_STREAM_STATES.filter(isOnAir)).toEqual(['live', 'reconnecting']);
  });
});
