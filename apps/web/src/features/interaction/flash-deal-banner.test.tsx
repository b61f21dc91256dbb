// @vitest-environment happy-dom
import type { FlashDealPresentation, LiveEvent } from '@vitrine/protocol';
import { act } from 'preact/test-utils';
import { createRef } from 'react';
import { describe, expect, it } from 'vitest';
import { mountEachTest } from '../../test-support/mount-each-test.ts';
import FlashDealBanner from './flash-deal-banner.tsx';

const LIVE_START = 1_700_000_000_000;
const STARTED = LIVE_START + 600_000;

const replay = {
  id: 'show',
  event: {
    currentStatus: 'vod',
    cdn: null,
    broadcastDelayMs: 750,
    cdnDelayMs: null,
    cdnVideoStartTime: null,
    liveStartTime: LIVE_START,
    eventStartTimestamp: LIVE_START,
  },
} as unknown as LiveEvent;

const deal: FlashDealPresentation = {
  uid: 'deal',
  productUid: 'mug',
  variantUid: null,
  prices: { DKK: 4900 },
  regularPrices: { DKK: 9900 },
  countdownSec: 30,
  durationSec: 120,
  startedAt: STARTED,
  endedAt: null,
  totalUnits: 10,
  perShopperLimit: 1,
  unitsLeft: 4,
  soldOut: false,
};

const mounted = mountEachTest();

function renderAt(seconds: number) {
  const video = document.createElement('video');
  Object.defineProperty(video, 'currentTime', { value: seconds, configurable: true });
  const videoRef = createRef<HTMLVideoElement>() as { current: HTMLVideoElement | null };
  videoRef.current = video;
  act(() =>
    mounted.root.render(
      <FlashDealBanner pageUid="shop" campaignUid="show" event={replay} videoRef={videoRef} deals={[deal]} />,
    ),
  );
}

describe('the flash deal banner in a replay', () => {
  it('shows a past deal as ended, without the deal price or a buy button, once the video reaches it', () => {
    renderAt(60);
    expect(mounted.container.querySelector('.flash-deal')).toBeNull();
    // The deal ran from 630.75 s to 750.75 s of the video: during and after it, a replay shows it ended.
    renderAt(700);
    expect(mounted.container.querySelector('.flash-deal--ended')).not.toBeNull();
    expect(mounted.container.querySelector('.flash-deal__price')).toBeNull();
    expect(mounted.container.querySelector('.flash-deal__add')).toBeNull();
  });
});
