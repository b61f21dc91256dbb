import type { EventCurrentStatus } from '@vitrine/protocol/vocabulary';
import { describe, expect, it } from 'vitest';
import { deriveVideo, pickCampaignEvent, type VideoSourceRecord } from './video.ts';

const record = (overrides: Partial<VideoSourceRecord['event']> = {}): VideoSourceRecord => ({
  id: 'ev-1',
  event: {
    eventName: 'Autumn living',
    currentStatus: 'vod',
    campaignId: 'camp-1',
    storeInfo: { id: 'page-1' },
    cdn: 'vitrine',
    cdnLiveVideoId: 'live-1',
    cdnVideoId: 'vod-1',
    cdnMp4VideoUrl: '/demo-media/show.mp4',
    liveStartTime: 1000,
    liveEndTime: 2000,
    liveVideoFormat: { width: 540, height: 960, picture: '/pic.jpg' },
    liveVideoCover: '/live-cover.jpg',
    coverPhotoPath: '/cover.jpg',
    videoHasOverlay: true,
    ...overrides,
  },
  video: { cdn: 'vitrine', currentStatus: 'vod' },
});

describe('deriveVideo (spec §3 "Derived video object")', () => {
  it('carries every field of the derived video object', () => {
    expect(deriveVideo(record())).toEqual({
      liveVideoId: 'live-1',
      videoId: 'vod-1',
      videoStarted: true,
      videoEnded: true,
      dimension: { width: 540, height: 960 },
      picture: '/pic.jpg',
      currentStatus: 'vod',
      cdn: 'vitrine',
      mp4VideoUrl: '/demo-media/show.mp4',
      videoHasOverlay: true,
      campaignUid: 'camp-1',
      pageUid: 'page-1',
      eventUid: 'ev-1',
      eventName: 'Autumn living',
      poster: '/pic.jpg',
    });
  });

  it('a show not yet started or ended says so, and the poster falls back to the covers', () => {
    const video = deriveVideo(record({ liveStartTime: null, liveEndTime: null, liveVideoFormat: null }));
    expect(video).toMatchObject({
      videoStarted: false,
      videoEnded: false,
      dimension: null,
      poster: '/live-cover.jpg',
    });
    expect(deriveVideo(record({ liveVideoFormat: null, liveVideoCover: null })).poster).toBe('/cover.jpg');
  });
});

describe('pickCampaignEvent', () => {
  const event = (id: string, currentStatus: EventCurrentStatus, eventStartTimestamp: number) => ({
    id,
    event: { currentStatus, eventStartTimestamp },
  });

  it('prefers the live event, then the next planned one, then the latest recording', () => {
    const vodOld = event('vod-old', 'vod', 1);
    const vodNew = event('vod-new', 'vod', 5);
    const planned = [event('later', 'planned', 30), event('sooner', 'planned', 20)];
    expect(pickCampaignEvent([vodOld, ...planned, event('live', 'live', 10), vodNew])?.id).toBe('live');
    expect(pickCampaignEvent([vodOld, ...planned, vodNew])?.id).toBe('sooner');
    expect(pickCampaignEvent([vodNew, vodOld])?.id).toBe('vod-new');
    expect(pickCampaignEvent([])).toBeUndefined();
  });
});
