import { describe, expect, it } from 'vitest';
import { preferH264 } from './whip-client.ts';

describe('preferH264', () => {
  it('puts constrained-baseline H.264 with packetization-mode 1 first, then other H.264, then VP8', () => {
    const codec = (mimeType: string, sdpFmtpLine?: string) => ({ mimeType, clockRate: 90000, sdpFmtpLine });
    const ordered = preferH264([
      codec('video/VP8'),
      codec('video/rtx'),
      codec('video/H264', 'level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42e01f'),
      codec('video/H264', 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=4d001f'),
      codec('video/H264', 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f'),
      codec('video/AV1'),
    ]);
    expect(ordered.map((entry) => `${entry.mimeType} ${entry.sdpFmtpLine ?? ''}`.trim())).toEqual([
      'video/H264 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f',
      'video/H264 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=4d001f',
      'video/H264 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42e01f',
      'video/VP8',
      'video/rtx',
      'video/AV1',
    ]);
  });
});
