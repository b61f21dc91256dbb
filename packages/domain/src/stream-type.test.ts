import type { LiveEvent } from '@vitrine/protocol';
import type { EventCurrentStatus } from '@vitrine/protocol/vocabulary';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { DELAYED_CDN_PROVIDER } from './constants.ts';
import { type StreamTypeRecord, streamStatus, streamType, trackingEventStatus } from './stream-type.ts';

function record(
  cdn: string | null,
  eventStatus: EventCurrentStatus,
  videoStatus: EventCurrentStatus,
): StreamTypeRecord {
  return { event: { currentStatus: eventStatus }, video: { cdn, currentStatus: videoStatus } };
}

describe('streamType', () => {
  it('accepts the protocol LiveEvent (spec §3 "Live event record", "Derived video object")', () => {
    expectTypeOf<LiveEvent>().toExtend<StreamTypeRecord>();
  });

  it('is live when the status is live (spec §4 "Stream type")', () => {
    expect(streamType(record('vitrine', 'live', 'live'))).toBe('live');
    expect(streamType(record(DELAYED_CDN_PROVIDER, 'live', 'live'))).toBe('live');
  });

  it('is on-demand for vod and planned (spec §4 "The stream type is live or on-demand")', () => {
    expect(streamType(record('vitrine', 'vod', 'vod'))).toBe('on-demand');
    expect(streamType(record('vitrine', 'planned', 'planned'))).toBe('on-demand');
  });

  it('follows the event status for the delayed provider (spec §4 "Stream type", §9 one particular provider)', () => {
    expect(streamStatus(record(DELAYED_CDN_PROVIDER, 'live', 'vod'))).toBe('live');
    expect(streamType(record(DELAYED_CDN_PROVIDER, 'live', 'vod'))).toBe('live');
    expect(streamType(record(DELAYED_CDN_PROVIDER, 'vod', 'live'))).toBe('on-demand');
  });

  it('follows the video status for every other provider (spec §4 "otherwise on the video status")', () => {
    expect(streamStatus(record('vitrine', 'live', 'vod'))).toBe('vod');
    expect(streamType(record('vitrine', 'live', 'vod'))).toBe('on-demand');
    expect(streamType(record('vitrine', 'vod', 'live'))).toBe('live');
    expect(streamType(record(null, 'vod', 'live'))).toBe('live');
  });

  it('keeps live when the video goes from live to vod (spec §4 "the stream type is kept and not reset")', () => {
    expect(streamType(record('vitrine', 'vod', 'vod'), 'live')).toBe('live');
    expect(streamType(record(DELAYED_CDN_PROVIDER, 'vod', 'vod'), 'live')).toBe('live');
  });

  it('stays on-demand for a vod that was on-demand before (spec §4 "Stream type")', () => {
    expect(streamType(record('vitrine', 'vod', 'vod'), 'on-demand')).toBe('on-demand');
    expect(streamType(record('vitrine', 'vod', 'vod'), null)).toBe('on-demand');
  });

  it('does not keep live when the status goes back to planned (spec §4 "from live to vod")', () => {
    expect(streamType(record('vitrine', 'planned', 'planned'), 'live')).toBe('on-demand');
  });
});

describe('trackingEventStatus', () => {
  it('is live when the live player is used (spec §4 "Event status sent to tracking")', () => {
    expect(trackingEventStatus(record('vitrine', 'vod', 'vod'), true)).toBe('live');
  });

  it('is the event’s current status otherwise (spec §4 "else the event\'s current status")', () => {
    expect(trackingEventStatus(record('vitrine', 'vod', 'live'), false)).toBe('vod');
    expect(trackingEventStatus(record('vitrine', 'planned', 'planned'), false)).toBe('planned');
    expect(trackingEventStatus(record('vitrine', 'live', 'vod'), false)).toBe('live');
  });
});
