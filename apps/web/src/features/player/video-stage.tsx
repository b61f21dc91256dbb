import {
  type BoxSize,
  type ClipMode,
  deriveVideo,
  isLandscape,
  NEXT_CLIP_COUNTDOWN_SECONDS,
  type ShowState,
  type StreamType,
  videoFill,
  videoStartTimestamp,
} from '@vitrine/domain';
import type { LiveEvent } from '@vitrine/protocol';
import { type CSSProperties, type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { logFailure } from '../../lib/debug.ts';
import { listenTo } from '../../lib/listen-to.ts';
import { registerStream } from '../../lib/live-clock.ts';
import { useLocale } from '../../lib/use-locale.ts';
import { isHlsSource } from './hls-config.ts';
import { attachSource } from './hls-loader.ts';
import { LiveControls } from './live-controls.tsx';
import { useLiveDelay } from './live-delay.ts';

/** The show a playlist plays after this one. */
export interface NextShow {
  eventName: string;
  clipMode: ClipMode;
  onNext(): void;
}

export interface VideoStageProps {
  event: LiveEvent;
  streamType: StreamType;
  state: ShowState;
  videoRef: RefObject<HTMLVideoElement | null>;
  onEnded(): void;
  onRewatch(): void;
  onPlaybackEvent(name: 'play' | 'paused' | 'muted' | 'unmuted'): void;
  /** The playlist's next show, offered (or, in clip mode, started after a countdown) at the end. */
  next?: NextShow;
  /** Buttons at the end of the title bar (an embedded player's host controls): the title makes room for them. */
  topActions?: ReactNode;
  /**
   * The box the phone layout fills with the video (its frame), or null on a wide screen, where the
   * stage takes the video's own shape beside the panel.
   */
  phoneBox: BoxSize | null;
  /** Seconds into a recording where it starts (a link's `?t=`), once; null: from the start. */
  startTime?: number | null;
}

/**
 * The video's picture size once its metadata is in (and again if the stream changes it), or
 * `announced` (the event's `liveVideoFormat`) until then.
 */
function useVideoSize(
  videoRef: RefObject<HTMLVideoElement | null>,
  announced: BoxSize | null,
): BoxSize | null {
  const [size, setSize] = useState<BoxSize | null>(null);
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const read = () => {
      const { videoWidth: width, videoHeight: height } = video;
      if (width <= 0 || height <= 0) return;
      setSize((previous) =>
        previous?.width === width && previous.height === height ? previous : { width, height },
      );
    };
    read();
    video.addEventListener('loadedmetadata', read);
    // A live stream can change its picture size mid-show (the encoder's settings changed).
    video.addEventListener('resize', read);
    return () => {
      video.removeEventListener('loadedmetadata', read);
      video.removeEventListener('resize', read);
    };
  }, [videoRef]);
  return size ?? announced;
}

/**
 * The show's video with its state overlays: status badge, planned start, recorded-show cover,
 * wrap-up, expiry and failure help.
 */
export function VideoStage({
  event,
  streamType,
  state,
  videoRef,
  onEnded,
  onRewatch,
  onPlaybackEvent,
  next,
  topActions,
  phoneBox,
  startTime = null,
}: VideoStageProps) {
  const { t } = useTranslation();
  const format = useLocale();
  const [failed, setFailed] = useState(false);
  const [started, setStarted] = useState(false);
  // A viewer who was here while the show was live did not miss it: the cover says it ended instead.
  const [sawLive, setSawLive] = useState(state === 'live');
  if (state === 'live' && !sawLive) setSawLive(true);
  // The live show just ended under a viewer who was watching it: the cover tells them so (on a
  // phone too, where nothing else would), and offers the recording, as if they had not started.
  const [previousState, setPreviousState] = useState(state);
  if (state !== previousState) {
    setPreviousState(state);
    if (previousState === 'live' && state === 'recorded') setStarted(false);
  }
  const details = event.event;
  const video = deriveVideo(event);
  const videoSize = useVideoSize(videoRef, video.dimension);
  // The whole picture of a landscape show on a phone, letterboxed; edge to edge for a vertical one.
  const fill = phoneBox ? videoFill(videoSize, phoneBox) : 'contain';
  const source = details.currentStatus === 'planned' ? null : video.mp4VideoUrl;
  const poster = video.poster ?? undefined;
  const simulatedLive = streamType === 'live' && source !== null && !isHlsSource(source);
  // A live stream (HLS while the event is live): live settings, muted autoplay, live controls.
  const liveStream = details.currentStatus === 'live' && source !== null && isHlsSource(source);
  const liveDelay = useLiveDelay(videoRef, liveStream);

  // A live show served as a recorded file (the demo, or a re-run) plays from the live position
  // and loops, so viewers joining later see what the live clock says is on now.
  useEffect(() => {
    const element = videoRef.current;
    if (!element || !simulatedLive) return;
    const joinLive = () => {
      if (!Number.isFinite(element.duration) || element.duration <= 0) return;
      const sinceStart = (Date.now() - videoStartTimestamp(event)) / 1000;
      element.currentTime = ((sinceStart % element.duration) + element.duration) % element.duration;
    };
    element.loop = true;
    element.addEventListener('loadedmetadata', joinLive);
    if (element.readyState >= 1) joinLive();
    return () => {
      element.loop = false;
      element.removeEventListener('loadedmetadata', joinLive);
    };
  }, [videoRef, simulatedLive, event]);

  // A link to a moment of a recording (`?t=`): the video is placed there once its length is
  // known, so the cover's Play button (or the viewer's own) starts at the moment, not at 0.
  const startApplied = useRef(false);
  const recording = details.currentStatus === 'vod' && source !== null && !simulatedLive;
  useEffect(() => {
    const element = videoRef.current;
    if (!element || startTime === null || !recording || startApplied.current) return;
    // The browser keeps a time past the end at the end.
    const seek = () => {
      startApplied.current = true;
      element.currentTime = startTime;
    };
    if (element.readyState >= HTMLMediaElement.HAVE_METADATA) seek();
    else element.addEventListener('loadedmetadata', seek, { once: true });
    return () => element.removeEventListener('loadedmetadata', seek);
  }, [videoRef, startTime, recording]);

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !source) return;
    let release: (() => void) | undefined;
    let cancelled = false;
    setFailed(false);
    if (liveStream) {
      // Browsers let a muted video start without a click; "tap for sound" gives the sound.
      video.muted = true;
      video.autoplay = true;
    }
    attachSource(video, source, { live: liveStream }).then(
      (stream) => {
        if (cancelled) {
          stream.release();
          return;
        }
        const unregister = registerStream(video, stream);
        release = () => {
          unregister();
          stream.release();
        };
      },
      (error: unknown) => {
        logFailure('loading the video failed', error);
        setFailed(true);
      },
    );
    return () => {
      cancelled = true;
      release?.();
      video.autoplay = false;
    };
  }, [videoRef, source, liveStream]);

  // The last muted state reported, kept across this effect's runs: the listener is replaced when
  // the callbacks change, and a mute made just before that would otherwise reach only the new
  // listener, which would read it as the state it started from and report nothing.
  const reportedMuted = useRef<boolean | null>(null);
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    reportedMuted.current ??= video.muted;
    const onVolume = () => {
      if (video.muted !== reportedMuted.current) onPlaybackEvent(video.muted ? 'muted' : 'unmuted');
      reportedMuted.current = video.muted;
    };
    const onPlay = () => {
      setStarted(true);
      onPlaybackEvent('play');
    };
    const onPause = () => {
      if (!video.ended) onPlaybackEvent('paused');
    };
    const onError = () => setFailed(true);
    return listenTo(video, {
      play: onPlay,
      pause: onPause,
      volumechange: onVolume,
      ended: onEnded,
      error: onError,
    });
  }, [videoRef, onEnded, onPlaybackEvent]);

  return (
    <div
      className="video-stage"
      data-show-state={state}
      data-live-delay-ms={liveDelay ?? undefined}
      data-live-stream={liveStream || undefined}
      data-video-fill={fill}
      data-video-shape={isLandscape(videoSize) ? 'landscape' : 'portrait'}
      style={
        videoSize
          ? ({ '--video-aspect': `${videoSize.width} / ${videoSize.height}` } as CSSProperties)
          : undefined
      }
    >
      {/* biome-ignore lint/a11y/useMediaCaption: shows carry no caption track yet */}
      <video
        ref={videoRef}
        className="video-stage__video"
        poster={poster}
        playsInline
        controls={state !== 'planned' && !liveStream}
        preload={liveStream ? 'auto' : 'metadata'}
      />
      {liveStream && state === 'live' && <LiveControls videoRef={videoRef} />}
      <div className="video-stage__top">
        <span className={`status-badge status-badge--${state}`}>{t(`player.state.${state}`)}</span>
        <h1 className="video-stage__title">{details.eventName}</h1>
        {topActions}
      </div>

      {state === 'planned' && (
        <div className="video-stage__overlay video-stage__overlay--planned">
          <p className="video-stage__overlay-title">
            {t('player.startsAt', { time: format.dateTime(details.eventStartTimestamp) })}
          </p>
          <p>{t('player.plannedHint')}</p>
        </div>
      )}
      {state === 'recorded' && !started && (
        <div className="video-stage__overlay video-stage__overlay--cover">
          <p className="video-stage__overlay-title">
            {t(sawLive ? 'player.recordedCover.endedTitle' : 'player.recordedCover.title')}
          </p>
          <p>{t(sawLive ? 'player.recordedCover.endedText' : 'player.recordedCover.text')}</p>
          <button
            type="button"
            className="button"
            onClick={() => {
              // A recording that keeps playing the live show's file fires no new "play" event.
              setStarted(true);
              void videoRef.current?.play().catch(() => undefined);
            }}
          >
            {t('player.recordedCover.play')}
          </button>
        </div>
      )}
      {state === 'ended' && (
        <div className="video-stage__overlay" role="dialog" aria-labelledby="show-ended-title">
          <p id="show-ended-title" className="video-stage__overlay-title">
            {t('player.endedTitle')}
          </p>
          <p>{t('player.endedText')}</p>
          <div className="video-stage__overlay-actions">
            <button type="button" className="button button--secondary" onClick={onRewatch}>
              {t('player.rewatch')}
            </button>
            {next && next.clipMode === 'normal' && (
              <button type="button" className="button" onClick={next.onNext}>
                {t('player.nextShow', { name: next.eventName })}
              </button>
            )}
          </div>
          {next && next.clipMode === 'clip' && <NextClipCountdown next={next} />}
        </div>
      )}
      {state === 'expired' && (
        <p className="video-stage__notice" role="status">
          {t('player.expired')}
        </p>
      )}
      {failed && (
        <div className="video-stage__overlay video-stage__overlay--error" role="alert">
          <p className="video-stage__overlay-title">{t('player.videoProblem.title')}</p>
          <p>{t('player.videoProblem.safari')}</p>
          <ul>
            <li>{t('player.videoProblem.disable')}</li>
            <li>{t('player.videoProblem.otherBrowser')}</li>
            <li>{t('player.videoProblem.otherPlatform')}</li>
            <li>{t('player.videoProblem.app')}</li>
          </ul>
        </div>
      )}
    </div>
  );
}

/** Counts down whole seconds, then starts the next clip; the viewer can start it at once or stay. */
export function NextClipCountdown({ next }: { next: NextShow }) {
  const { t } = useTranslation();
  const [seconds, setSeconds] = useState(NEXT_CLIP_COUNTDOWN_SECONDS);
  const [cancelled, setCancelled] = useState(false);
  useEffect(() => {
    if (cancelled) return;
    if (seconds <= 0) {
      next.onNext();
      return;
    }
    const timer = setTimeout(() => setSeconds((left) => left - 1), 1000);
    return () => clearTimeout(timer);
  }, [seconds, cancelled, next]);
  if (cancelled) return null;
  return (
    <div className="next-clip" role="timer" aria-live="polite">
      <p>{t('player.nextClipIn', { name: next.eventName, seconds })}</p>
      <div className="video-stage__overlay-actions">
        <button type="button" className="button" onClick={next.onNext}>
          {t('player.playNow')}
        </button>
        <button type="button" className="link-button" onClick={() => setCancelled(true)}>
          {t('player.stay')}
        </button>
      </div>
    </div>
  );
}
