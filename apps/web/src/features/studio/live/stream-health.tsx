import type { LiveStreamView } from '@vitrine/protocol';
import { useStudioTranslation } from '../studio-i18n.ts';

const number = (value: number | null, digits = 0) => (value === null ? '—' : value.toFixed(digits));

/** Free space in the language's own words: "12.3 GB", "840 MB". */
function formatSize(bytes: number, language: string): string {
  const gigabytes = bytes / 1e9;
  const [value, unit] = gigabytes >= 1 ? [gigabytes, 'gigabyte'] : [bytes / 1e6, 'megabyte'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, maximumFractionDigits: 1 }).format(value);
}

/** The viewers' delay as their own players report it (the control room's median), if any report. */
export interface PlayersDelay {
  medianDelayMs: number | null;
  delayReports: number;
}

/**
 * The incoming stream's figures: bitrate, frame rate, keyframe interval (1 s makes 1-second
 * segments), dropped frames, the delay viewers have as their players report it (issue 33 item 12:
 * the studio's preview buffers differently, so its own delay is shown apart), and the space left
 * for the recording (minutes at this bitrate). Warns when that runs low, when the disk is full
 * (the show goes on unrecorded) and when the last publish was refused for what it sent.
 */
export function StreamHealth({
  stream,
  viewerDelayMs,
  playersDelay,
}: {
  stream: LiveStreamView;
  /** The preview's own delay, measured here. */
  viewerDelayMs: number | null;
  playersDelay: PlayersDelay | null;
}) {
  const { t, i18n } = useStudioTranslation('studio-live');
  const health = stream.health;
  const keyframeTooLong = (health?.keyframeIntervalSeconds ?? 0) > 2;
  const { disk } = stream;
  const size = disk.freeBytes === null ? null : formatSize(disk.freeBytes, i18n.language);
  return (
    <>
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
          <dd data-testid="viewer-delay" data-reports={playersDelay?.delayReports ?? 0}>
            {playersDelay?.medianDelayMs == null
              ? '—'
              : t('health.seconds', { value: (playersDelay.medianDelayMs / 1000).toFixed(1) })}
            {playersDelay !== null && playersDelay.delayReports > 0 && (
              <span className="studio-small studio-muted">
                {' '}
                {t('health.delayReports', { count: playersDelay.delayReports })}
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt>{t('health.previewDelay')}</dt>
          <dd data-testid="preview-delay">
            {viewerDelayMs === null ? '—' : t('health.seconds', { value: (viewerDelayMs / 1000).toFixed(1) })}
          </dd>
        </div>
        <div>
          <dt>{t('health.disk')}</dt>
          <dd className={disk.low ? 'live-health__warn' : undefined} data-testid="disk-space">
            {size === null
              ? '—'
              : disk.minutesLeft === null
                ? t('health.diskFree', { size })
                : t('health.diskFreeMinutes', { size, minutes: disk.minutesLeft })}
          </dd>
        </div>
        {keyframeTooLong && <p className="live-health__hint studio-small">{t('health.keyframeHint')}</p>}
      </dl>
      {disk.full && (
        <p role="alert" className="studio-notice studio-notice--error" data-testid="disk-full">
          {t('health.diskFull')}
        </p>
      )}
      {stream.refusal && (
        <p role="alert" className="studio-notice studio-notice--error" data-testid="publish-refused">
          {t('health.refused', { message: stream.refusal.message })}
        </p>
      )}
    </>
  );
}
