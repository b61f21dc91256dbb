import { describe, expect, it } from 'vitest';
import { checkWhipOffer } from './whip-offer.ts';

const head = ['v=0', 'o=- 1 2 IN IP4 127.0.0.1', 's=-', 't=0 0'];
const offer = (...lines: string[]) => [...head, ...lines].join('\r\n');

describe('checkWhipOffer', () => {
  it('prefers H.264 over VP8 and notes Opus audio', () => {
    const result = checkWhipOffer(
      offer(
        'm=audio 9 UDP/TLS/RTP/SAVPF 111',
        'a=rtpmap:111 opus/48000/2',
        'm=video 9 UDP/TLS/RTP/SAVPF 96 102',
        'a=rtpmap:96 VP8/90000',
        'a=rtpmap:102 H264/90000',
      ),
    );
    expect(result).toEqual({ ok: true, videoCodec: 'H264', hasAudio: true });
  });

  it('takes VP8 alone (transcoded) and video without audio', () => {
    expect(checkWhipOffer(offer('m=video 9 UDP/TLS/RTP/SAVPF 96', 'a=rtpmap:96 VP8/90000'))).toEqual({
      ok: true,
      videoCodec: 'VP8',
      hasAudio: false,
    });
  });

  it('refuses garbage, an offer without video, a rejected video section and unknown codecs', () => {
    expect(checkWhipOffer('hello')).toMatchObject({ ok: false, error: 'bad_offer' });
    expect(checkWhipOffer('')).toMatchObject({ ok: false, error: 'bad_offer' });
    expect(
      checkWhipOffer(offer('m=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=rtpmap:111 opus/48000/2')),
    ).toMatchObject({
      ok: false,
      error: 'no_video',
    });
    expect(checkWhipOffer(offer('m=video 0 UDP/TLS/RTP/SAVPF 96', 'a=rtpmap:96 H264/90000'))).toMatchObject({
      ok: false,
      error: 'no_video',
    });
    expect(checkWhipOffer(offer('m=video 9 UDP/TLS/RTP/SAVPF 45', 'a=rtpmap:45 AV1/90000'))).toMatchObject({
      ok: false,
      error: 'unsupported_codec',
      message: expect.stringContaining('AV1'),
    });
  });
});
