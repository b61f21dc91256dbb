import { type RefObject, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { streamOf } from '../../lib/live-clock.ts';

interface LiveControlState {
  muted: boolean;
  paused: boolean;
  /** Whether the viewer is far enough behind the live edge to be offered a way back. */
  behind: boolean;
}

function readState(video: HTMLVideoElement): LiveControlState {
  // Until the video has first played (its muted autoplay on the way), the row stays as it starts:
  // "tap for sound" (which starts it with sound if autoplay was refused) and no "back to live".
  // Read from the element in that moment, before the player has muted it, the row changed twice
  // and its buttons moved as the show started.
  const started = video.played.length > 0;
  return {
    muted: video.muted || !started,
    paused: video.paused,
    behind: (video.paused && started) || (streamOf(video)?.behindLive() ?? false),
  };
}

/**
 * A live show's controls, in place of the browser's (whose seek bar and "0:30 / 1:00" make no
 * sense on a live stream): "tap for sound" while the autoplaying video is muted, play/pause, and
 * "back to live" while paused or more than a few seconds behind the player's target (the player
 * catches up by itself unless she chose her delay: live-catch-up.ts). A keyboard user never loses
 * the focus to the page: "back to live" stays while it has the focus (the viewer may catch up
 * meanwhile), and once used it hands the focus to play/pause before it goes.
 */
export function LiveControls({ videoRef }: { videoRef: RefObject<HTMLVideoElement | null> }) {
  const { t } = useTranslation();
  const [state, setState] = useState<LiveControlState>({ muted: true, paused: true, behind: false });
  const [backFocused, setBackFocused] = useState(false);
  const playPause = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const update = () =>
      setState((previous) => {
        const next = readState(video);
        return previous.muted === next.muted &&
          previous.paused === next.paused &&
          previous.behind === next.behind
          ? previous
          : next;
      });
    const events = ['volumechange', 'play', 'pause', 'playing', 'timeupdate'] as const;
    for (const name of events) video.addEventListener(name, update);
    update();
    return () => {
      for (const name of events) video.removeEventListener(name, update);
    };
  }, [videoRef]);

  const video = () => videoRef.current;
  const play = () =>
    void video()
      ?.play()
      .catch(() => undefined);
  const unmute = () => {
    const element = video();
    if (!element) return;
    element.muted = false;
    play();
  };
  const backToLive = () => {
    streamOf(video())?.goLive();
    playPause.current?.focus();
  };

  return (
    <fieldset className="live-controls" aria-label={t('player.live.controls')}>
      {state.muted ? (
        <button type="button" className="live-controls__sound" onClick={unmute}>
          <span aria-hidden="true" className="live-controls__icon live-controls__icon--muted" />
          {t('player.live.tapForSound')}
        </button>
      ) : (
        <button
          type="button"
          className="live-controls__button"
          onClick={() => {
            const element = video();
            if (element) element.muted = true;
          }}
        >
          {t('player.live.mute')}
        </button>
      )}
      <button
        ref={playPause}
        type="button"
        className="live-controls__button"
        onClick={() => (state.paused ? play() : video()?.pause())}
      >
        {t(state.paused ? 'player.live.play' : 'player.live.pause')}
      </button>
      {(state.behind || backFocused) && (
        <button
          type="button"
          className="live-controls__button live-controls__back"
          onClick={backToLive}
          onFocus={() => setBackFocused(true)}
          onBlur={() => setBackFocused(false)}
        >
          {t('player.live.backToLive')}
        </button>
      )}
    </fieldset>
  );
}
