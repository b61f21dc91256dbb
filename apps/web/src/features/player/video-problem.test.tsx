// @vitest-environment happy-dom
import type { LiveEvent } from '@vitrine/protocol';
import i18next from 'i18next';
import { act } from 'preact/test-utils';
import { createRef } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import texts from '../../locales/en.json';
import { mountEachTest } from '../../test-support/mount-each-test.ts';
import { VideoStage } from './video-stage.tsx';

// Spec §8: when the video cannot play, the viewer gets the help text about Safari's "Hide IP
// address from trackers" and the four ways out (turn it off, another browser, another platform,
// the app). Shown on the video's own error, not before.

const i18n = i18next.createInstance();
beforeAll(async () => {
  // happy-dom's video has no picture size; a browser's reads 0 until the metadata is in.
  for (const size of ['videoWidth', 'videoHeight'] as const)
    Object.defineProperty(HTMLVideoElement.prototype, size, { configurable: true, get: () => 0 });
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: texts } } });
});

const recordedShow: LiveEvent = {
  id: 'ev-1',
  event: {
    status: 'public',
    currentStatus: 'vod',
    eventName: 'Autumn living',
    eventStartTimestamp: 1_700_000_000_000,
    storeInfo: { id: 'page-1', language: 'en', currency: 'DKK' },
    liveStartTime: 1_700_000_000_000,
    liveEndTime: 1_700_003_600_000,
    cdn: 'vitrine',
    cdnLiveVideoId: null,
    cdnVideoId: 'vod-1',
    cdnVideoStartTime: null,
    cdnMp4VideoUrl: '/media/show.mp4',
    liveVideoFormat: null,
    liveVideoCover: null,
    coverPhotoPath: null,
    videoHasOverlay: false,
    campaignId: 'camp-1',
    onsiteCartMode: 'cart',
    leadModeAfterDeadline: false,
    useOnsiteCart: false,
    broadcastDelayMs: null,
    cdnDelayMs: null,
  },
  campaign: { deadline: null, usingCheckout: false },
  video: { cdn: 'vitrine', currentStatus: 'vod' },
};

const mounted = mountEachTest();

describe('the video problem help (spec §8)', () => {
  it('appears when the video fails, with the Safari setting and the four ways out', () => {
    const videoRef = createRef<HTMLVideoElement>();
    act(() =>
      mounted.root.render(
        <I18nextProvider i18n={i18n}>
          <VideoStage
            event={recordedShow}
            streamType="on-demand"
            state="recorded"
            videoRef={videoRef}
            onEnded={() => undefined}
            onRewatch={() => undefined}
            onPlaybackEvent={() => undefined}
            phoneBox={null}
          />
        </I18nextProvider>,
      ),
    );
    const help = () => mounted.container.querySelector('.video-stage__overlay--error');
    expect(help()).toBeNull();

    act(() => void videoRef.current?.dispatchEvent(new Event('error')));

    const shown = help();
    expect(shown?.getAttribute('role')).toBe('alert');
    expect(shown?.textContent).toContain('Hide IP address from trackers');
    expect(shown?.querySelectorAll('li')).toHaveLength(4);
  });
});
