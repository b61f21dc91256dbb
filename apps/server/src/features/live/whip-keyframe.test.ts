import { describe, expect, it } from 'vitest';
import { rtpStartsKeyframe } from './whip-session.ts';

// Forwarding to each packager run starts at a keyframe (its first frame is then known exactly):
// which RTP payloads start one.

const bytes = (...values: number[]) => new Uint8Array(values);

describe('an RTP payload starting a keyframe', () => {
  it('H.264: a parameter set or an IDR slice, alone', () => {
    expect(rtpStartsKeyframe('H264', bytes(0x67, 0x42))).toBe(true); // SPS
    expect(rtpStartsKeyframe('H264', bytes(0x65, 0x88))).toBe(true); // IDR
    expect(rtpStartsKeyframe('H264', bytes(0x41, 0x9a))).toBe(false); // a P slice
    expect(rtpStartsKeyframe('H264', bytes(0x68, 0xce))).toBe(false); // PPS alone
  });

  it('H.264: an aggregate (STAP-A) holding the SPS', () => {
    const stap = bytes(0x18, 0x00, 0x02, 0x67, 0x42, 0x00, 0x02, 0x68, 0xce);
    expect(rtpStartsKeyframe('H264', stap)).toBe(true);
    expect(rtpStartsKeyframe('H264', bytes(0x18, 0x00, 0x02, 0x41, 0x9a))).toBe(false);
    // A size running past the end is not read beyond it.
    expect(rtpStartsKeyframe('H264', bytes(0x18, 0xff, 0xff))).toBe(false);
  });

  it('H.264: the first fragment (FU-A) of an IDR, not a later one', () => {
    expect(rtpStartsKeyframe('H264', bytes(0x7c, 0x85, 0x88))).toBe(true);
    expect(rtpStartsKeyframe('H264', bytes(0x7c, 0x05, 0x88))).toBe(false);
    expect(rtpStartsKeyframe('H264', bytes(0x7c, 0x81, 0x88))).toBe(false);
  });

  it('VP8: the start of partition 0 of a key frame, with or without the extended descriptor', () => {
    expect(rtpStartsKeyframe('VP8', bytes(0x10, 0x00))).toBe(true);
    expect(rtpStartsKeyframe('VP8', bytes(0x10, 0x01))).toBe(false); // an inter frame
    expect(rtpStartsKeyframe('VP8', bytes(0x00, 0x00))).toBe(false); // not the start
    // X, then I with a 15-bit picture id (M set): the header byte comes after 4 descriptor bytes.
    expect(rtpStartsKeyframe('VP8', bytes(0x90, 0x80, 0x81, 0x23, 0x00))).toBe(true);
    expect(rtpStartsKeyframe('VP8', bytes(0x90, 0x80, 0x81, 0x23, 0x01))).toBe(false);
    expect(rtpStartsKeyframe('VP8', bytes())).toBe(false);
  });
});
