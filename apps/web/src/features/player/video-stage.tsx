import type { ShowState } from '@vitrine/domain';
import type { LiveEvent } from '@vitrine/protocol';
import { type RefObject, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { logFailure } from '../../lib/debug.ts';
import { useLocale } from '../../lib/use-locale.ts';
import { attachSource } from './hls-loader.ts';

export interface VideoStageProps {
  event: LiveEvent;
  state: ShowState;
  videoRef: RefObject<HTMLVideoElement | null>;
  onEnded(): void;
  onRewatch(): void;
  onPlaybackEvent(name: 'play' | 'paused' | 'muted' | 'unmuted'): void;
}

/** The show's video with its state overlays: status badge, countdown, wrap-up, expiry, failure help. */
export function VideoStage({ event, state, videoRef, onEnded, onRewatch, onPlaybackEvent }: VideoStageProps) {
  const { t } = useTranslation();
  const format = useLocale();
  const [failed, setFailed] = useState(false);
  const details = event.event;
  const source = details.currentStatus === 'planned' ? null : details.cdnMp4VideoUrl;
  const poster =
    details.liveVideoFormat?.picture ?? details.coverPhotoPath ?? details.liveVideoCover ?? undefined;

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !source) return;
    let release: (() => void) | undefined;
    let cancelled = false;
    setFailed(false);
    attachSource(video, source).then(
      (detach) => {
        if (cancelled) detach();
        else release = detach;
      },
      (error: unknown) => {
        logFailure('loading the video failed', error);
        setFailed(true);
      },
    );
    return () => {
      cancelled = true;
      release?.();
    };
  }, [videoRef, source]);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let wasMuted = video.muted;
    const onVolume = () => {
      if (video.muted !== wasMuted) onPlaybackEvent(video.muted ? 'muted' : 'unmuted');
      wasMuted = video.muted;
    };
    const onPlay = () => onPlaybackEvent('play');
    const onPause = () => {
      if (!video.ended) onPlaybackEvent('paused');
    };
    const onError = () => setFailed(true);
    video.addEventListener('play', onPlay);
    video.addEventListener('pause', onPause);
    video.addEventListener('volumechange', onVolume);
    video.addEventListener('ended', onEnded);
    video.addEventListener('error', onError);
    return () => {
      video.removeEventListener('play', onPlay);
      video.removeEventListener('pause', onPause);
      video.removeEventListener('volumechange', onVolume);
      video.removeEventListener('ended', onEnded);
      video.removeEventListener('error', onError);
    };
  }, [videoRef, onEnded, onPlaybackEvent]);

  return (
    <div className="video-stage" data-show-state={state}>
      {/* biome-ignore lint/a11y/useMediaCaption: shows carry no caption track yet */}
      <video
        ref={videoRef}
        className="video-stage__video"
        poster={poster}
        playsInline
        controls={state !== 'planned'}
        preload="metadata"
      />
      <div className="video-stage__top">
        <span className={`status-badge status-badge--${state}`}>{t(`player.state.${state}`)}</span>
        <span className="video-stage__title">{details.eventName}</span>
      </div>

      {state === 'planned' && (
        <div className="video-stage__overlay video-stage__overlay--planned">
          <p className="video-stage__overlay-title">
            {t('player.startsAt', { time: format.dateTime(details.eventStartTimestamp) })}
          </p>
          <p>{t('player.plannedHint')}</p>
        </div>
      )}
      {state === 'ended' && (
        <div className="video-stage__overlay" role="dialog" aria-labelledby="show-ended-title">
          <p id="show-ended-title" className="video-stage__overlay-title">
            {t('player.endedTitle')}
          </p>
          <p>{t('player.endedText')}</p>
          <button type="button" className="button" onClick={onRewatch}>
            {t('player.rewatch')}
          </button>
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
