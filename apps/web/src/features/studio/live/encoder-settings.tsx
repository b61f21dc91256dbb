import type { LiveStreamView } from '@vitrine/protocol';
import { useId, useState } from 'react';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { CopyButton } from '../ui/copy-button.tsx';

function Setting({
  label,
  value,
  copyLabel,
  secret = false,
}: {
  label: string;
  value: string;
  copyLabel: string;
  secret?: boolean;
}) {
  const { t } = useStudioTranslation('studio-live');
  const id = useId();
  const [shown, setShown] = useState(!secret);
  return (
    <div className="live-setting">
      <label className="studio-field__label" htmlFor={id}>
        {label}
      </label>
      <div className="live-setting__row">
        <input
          id={id}
          className="studio-input live-setting__value"
          type={shown ? 'text' : 'password'}
          readOnly
          value={value}
          onFocus={(event) => event.target.select()}
        />
        {secret && (
          <button
            type="button"
            className="studio-button"
            aria-pressed={shown}
            onClick={() => setShown(!shown)}
          >
            {shown ? t('encoder.hideKey') : t('encoder.showKey')}
          </button>
        )}
        <CopyButton
          text={value}
          label={copyLabel}
          copiedText={t('encoder.copied')}
          failedText={t('encoder.copyFailed')}
        />
      </div>
    </div>
  );
}

/**
 * What an external encoder needs: OBS's "Server" and "Stream Key" for RTMP, or the WHIP URL with
 * the key as bearer token (OBS 30+ "Service: WHIP"). Rotating the key refuses the old one at once.
 */
export function EncoderSettings({
  stream,
  onRotate,
}: {
  stream: LiveStreamView;
  onRotate: () => Promise<void>;
}) {
  const { t } = useStudioTranslation('studio-live');
  return (
    <div className="live-encoder">
      <p className="studio-muted studio-small">{t('encoder.intro')}</p>
      {stream.rtmpUrl ? (
        <Setting label={t('encoder.rtmpUrl')} value={stream.rtmpUrl} copyLabel={t('encoder.copyRtmpUrl')} />
      ) : (
        <p className="studio-notice">{t('encoder.noRtmp')}</p>
      )}
      {stream.whipUrl && (
        <Setting label={t('encoder.whipUrl')} value={stream.whipUrl} copyLabel={t('encoder.copyWhipUrl')} />
      )}
      <Setting
        label={t('encoder.streamKey')}
        value={stream.streamKey}
        copyLabel={t('encoder.copyKey')}
        secret
      />
      <ConfirmButton
        title={t('encoder.rotateTitle')}
        message={t('encoder.rotateMessage')}
        confirmLabel={t('encoder.rotateConfirm')}
        onConfirm={onRotate}
      >
        {t('encoder.rotate')}
      </ConfirmButton>
    </div>
  );
}
