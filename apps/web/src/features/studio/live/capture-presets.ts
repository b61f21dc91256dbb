/**
 * The camera formats the go-live page offers. Portrait first: the player shows vertical video
 * on phones, where most viewers watch; landscape for a desk or studio set-up.
 */
export const CAPTURE_PRESETS = [
  { id: '720p-portrait', width: 720, height: 1280, maxBitrate: 2_500_000 },
  { id: '1080p-portrait', width: 1080, height: 1920, maxBitrate: 4_500_000 },
  { id: '720p-landscape', width: 1280, height: 720, maxBitrate: 2_500_000 },
  { id: '1080p-landscape', width: 1920, height: 1080, maxBitrate: 4_500_000 },
] as const;
export type CapturePreset = (typeof CAPTURE_PRESETS)[number];
export type CapturePresetId = CapturePreset['id'];

/**
 * Constraints asking the camera for a preset at 30 frames per second ("ideal", so a camera that
 * cannot do it exactly still starts, with the nearest it can).
 */
export function captureConstraints(
  preset: CapturePreset,
  devices: { cameraId: string | null; microphoneId: string | null },
): MediaStreamConstraints {
  return {
    video: {
      ...(devices.cameraId ? { deviceId: { exact: devices.cameraId } } : {}),
      width: { ideal: preset.width },
      height: { ideal: preset.height },
      frameRate: { ideal: 30 },
    },
    audio: devices.microphoneId ? { deviceId: { exact: devices.microphoneId } } : true,
  };
}
