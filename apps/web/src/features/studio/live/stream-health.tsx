import type { LiveStreamView } from '@vitrine/protocol';
import { useStudioTranslation } from '../studio-i18n.ts';

const number = (value: number | null, digits = 0) => (value === null ? '—' : value.toFixed(digits));

/**
 * The incoming stream's figures: bitrate, frame rate, keyframe interval (1 s makes 1-second
 * segments), dropped frames, and the delay viewers have, measured on the preview.
 */
export function StreamHealth({
  stream,
  viewerDelayMs,
}: {
  stream: LiveStreamView;
  viewerDelayMs: number | null;
}) {
  const { t } = useStudioTranslation('studio-live');
  const health = stream.health;
  const keyframeTooLong = (health?.keyframeIntervalSeconds ?? 0) > 2;
  return (
    <dl className="live-health" aria-label={t('health.title')}>
      <div>
        <dt>{t('health.protocol')}</dt>
        <dd>{health ? health.protocol.toUpperCase() : '—'}</dd>
      </div>
      <div>
        <dt>{t('health.bitrate')}</dt>
        <dd>{health ? t('health.kbps', { value: number(health.bitrateKbps) }) : '—'}</dd>
      </div>
      <div>
        <dt>{t('health.fps')}</dt>
        <dd>{health ? number(health.framesPerSecond, 1) : '—'}</dd>
      </div>
      <div>
        <dt>{t('health.keyframes')}</dt>
        <dd className={keyframeTooLong ? 'live-health__warn' : undefined}>
          {health ? t('health.seconds', { value: number(health.keyframeIntervalSeconds, 1) }) : '—'}
        </dd>
      </div>
      <div>
        <dt>{t('health.dropped')}</dt>
        <dd>{health ? health.droppedFrames : '—'}</dd>
      </div>
      <div>
        <dt>{t('health.video')}</dt>
        <dd>{health ? t(health.videoPassthrough ? 'health.passthrough' : 'health.transcoded') : '—'}</dd>
      </div>
      <div>
        <dt>{t('health.delay')}</dt>
        <dd data-testid="viewer-delay">
          {viewerDelayMs === null ? '—' : t('health.seconds', { value: (viewerDelayMs / 1000).toFixed(1) })}
        </dd>
      </div>
      {keyframeTooLong && <p className="live-health__hint studio-small">{t('health.keyframeHint')}</p>}
    </dl>
  );
}
