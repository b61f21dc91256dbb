/** ffmpeg's video flags for 720p30 H.264 at 2.5 Mbit/s, tuned as a live encoder (OBS's kind). */
export const H264_LIVE_VIDEO = [
  ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency'],
  ...['-g', '30', '-pix_fmt', 'yuv420p', '-b:v', '2500k'],
];

/**
 * ffmpeg's arguments for a publisher as OBS would be: a 720p30 test pattern and a tone, in real
 * time, encoded with `video` (the codec flags) and AAC, sent over RTMP to `rtmpUrl`.
 */
export function rtmpTestPatternArgs(video: string[], rtmpUrl: string): string[] {
  return [
    ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-re'],
    ...['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-f', 'lavfi', '-i', 'sine=sample_rate=48000'],
    ...video,
    ...['-c:a', 'aac', '-f', 'flv', rtmpUrl],
  ];
}
