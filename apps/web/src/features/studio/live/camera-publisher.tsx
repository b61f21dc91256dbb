import { useEffect, useRef, useState } from 'react';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { CAPTURE_PRESETS, type CapturePresetId, captureConstraints } from './capture-presets.ts';
import { publishWhip, type WhipPublication } from './whip-client.ts';

type Phase = 'off' | 'preview' | 'connecting' | 'publishing';

interface Devices {
  cameras: MediaDeviceInfo[];
  microphones: MediaDeviceInfo[];
}

/**
 * The browser as the encoder: camera and microphone pickers, a format, the camera's preview, and
 * Publish / Stop, which send the stream to the show's WHIP endpoint. Publishing is not yet going
 * live: the studio shows "receiving", and the host goes live when the picture is right.
 */
export function CameraPublisher({
  whipUrl,
  streamKey,
  disabled,
}: {
  whipUrl: string | null;
  streamKey: string;
  disabled: boolean;
}) {
  const { t } = useStudioTranslation('studio-live');
  const [devices, setDevices] = useState<Devices>({ cameras: [], microphones: [] });
  const [cameraId, setCameraId] = useState<string | null>(null);
  const [microphoneId, setMicrophoneId] = useState<string | null>(null);
  const [presetId, setPresetId] = useState<CapturePresetId>('720p-portrait');
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [phase, setPhase] = useState<Phase>('off');
  const [problem, setProblem] = useState<string | null>(null);
  const publication = useRef<WhipPublication | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  const preset = CAPTURE_PRESETS.find((candidate) => candidate.id === presetId) ?? CAPTURE_PRESETS[0];
  const supported = typeof navigator !== 'undefined' && Boolean(navigator.mediaDevices?.getUserMedia);

  useEffect(() => {
    if (video.current) video.current.srcObject = stream;
  }, [stream]);

  // Leaving the page stops the camera and the publish.
  const latest = useRef({ stream, publication });
  latest.current = { stream, publication };
  useEffect(
    () => () => {
      void latest.current.publication.current?.stop();
      for (const track of latest.current.stream?.getTracks() ?? []) track.stop();
    },
    [],
  );

  async function listDevices() {
    const all = await navigator.mediaDevices.enumerateDevices();
    setDevices({
      cameras: all.filter((device) => device.kind === 'videoinput'),
      microphones: all.filter((device) => device.kind === 'audioinput'),
    });
  }

  async function startCamera(next: {
    cameraId: string | null;
    microphoneId: string | null;
    presetId: CapturePresetId;
  }) {
    setProblem(null);
    const nextPreset =
      CAPTURE_PRESETS.find((candidate) => candidate.id === next.presetId) ?? CAPTURE_PRESETS[0];
    try {
      const captured = await navigator.mediaDevices.getUserMedia(captureConstraints(nextPreset, next));
      for (const track of stream?.getTracks() ?? []) track.stop();
      setStream(captured);
      if (phase === 'off') setPhase('preview');
      await listDevices();
      // A publish in progress switches to the new tracks without a new offer.
      const peer = publication.current?.peer;
      if (peer) {
        for (const sender of peer.getSenders()) {
          const track = captured.getTracks().find((candidate) => candidate.kind === sender.track?.kind);
          if (track) await sender.replaceTrack(track);
        }
      }
    } catch (error) {
      setProblem(
        error instanceof DOMException && error.name === 'NotAllowedError'
          ? t('camera.denied')
          : t('camera.failed'),
      );
    }
  }

  const change = (
    patch: Partial<{ cameraId: string | null; microphoneId: string | null; presetId: CapturePresetId }>,
  ) => {
    const next = { cameraId, microphoneId, presetId, ...patch };
    setCameraId(next.cameraId);
    setMicrophoneId(next.microphoneId);
    setPresetId(next.presetId);
    if (stream) void startCamera(next);
  };

  async function publish() {
    if (!stream || !whipUrl) return;
    setProblem(null);
    setPhase('connecting');
    try {
      publication.current = await publishWhip({
        url: whipUrl,
        streamKey,
        stream,
        maxVideoBitrate: preset.maxBitrate,
      });
      setPhase('publishing');
    } catch (error) {
      setPhase('preview');
      setProblem(error instanceof Error && error.message ? error.message : t('camera.publishFailed'));
    }
  }

  // An ended show takes no stream: stop sending it.
  useEffect(() => {
    if (disabled && publication.current) void stop();
  });

  async function stop() {
    await publication.current?.stop();
    publication.current = null;
    setPhase(stream ? 'preview' : 'off');
  }

  if (!supported) return <p className="studio-notice">{t('camera.unsupported')}</p>;
  const portrait = preset.height > preset.width;
  return (
    <div className="live-camera">
      <div className={`live-camera__preview${portrait ? ' live-camera__preview--portrait' : ''}`}>
        <video ref={video} autoPlay muted playsInline aria-label={t('camera.preview')} />
        {!stream && <p className="live-camera__empty">{t('camera.off')}</p>}
      </div>
      <div className="live-camera__controls">
        <DevicePicker
          kind="camera"
          devices={devices.cameras}
          value={cameraId}
          onPick={(id) => change({ cameraId: id })}
        />
        <DevicePicker
          kind="microphone"
          devices={devices.microphones}
          value={microphoneId}
          onPick={(id) => change({ microphoneId: id })}
        />
        <label className="studio-field">
          <span className="studio-field__label">{t('camera.format')}</span>
          <select
            className="studio-input"
            value={presetId}
            disabled={phase === 'connecting' || phase === 'publishing'}
            onChange={(event) => change({ presetId: event.target.value as CapturePresetId })}
          >
            {CAPTURE_PRESETS.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {t(`camera.presets.${candidate.id}`)}
              </option>
            ))}
          </select>
        </label>
        <div className="live-actions">
          {!stream ? (
            <button
              type="button"
              className="studio-button"
              onClick={() => void startCamera({ cameraId, microphoneId, presetId })}
            >
              {t('camera.start')}
            </button>
          ) : phase === 'publishing' || phase === 'connecting' ? (
            <button
              type="button"
              className="studio-button"
              disabled={phase === 'connecting'}
              onClick={() => void stop()}
            >
              {phase === 'connecting' ? t('camera.connecting') : t('camera.stop')}
            </button>
          ) : (
            <button
              type="button"
              className="studio-button studio-button--primary"
              disabled={disabled || !whipUrl}
              onClick={() => void publish()}
            >
              {t('camera.publish')}
            </button>
          )}
        </div>
        {phase === 'publishing' && (
          <p className="studio-notice studio-notice--success">{t('camera.publishing')}</p>
        )}
        <ErrorNotice message={problem} />
      </div>
    </div>
  );
}

/**
 * Picks one of the browser's cameras or microphones (none: the browser's default); one the browser
 * does not name yet (no permission given) is numbered.
 */
function DevicePicker({
  kind,
  devices,
  value,
  onPick,
}: {
  kind: 'camera' | 'microphone';
  devices: MediaDeviceInfo[];
  value: string | null;
  onPick: (deviceId: string | null) => void;
}) {
  const { t } = useStudioTranslation('studio-live');
  return (
    <label className="studio-field">
      <span className="studio-field__label">{t(`camera.${kind}`)}</span>
      <select
        className="studio-input"
        value={value ?? ''}
        disabled={devices.length === 0}
        onChange={(event) => onPick(event.target.value || null)}
      >
        <option value="">{t('camera.default')}</option>
        {devices.map((device, index) => (
          <option key={device.deviceId} value={device.deviceId}>
            {device.label || t(`camera.${kind}Number`, { number: index + 1 })}
          </option>
        ))}
      </select>
    </label>
  );
}
