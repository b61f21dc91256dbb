import type { WhipRefusal } from '@vitrine/protocol';

/** The video codecs ingest takes, best first: H.264 is copied into HLS, VP8 is transcoded. */
export const WHIP_VIDEO_CODECS = ['H264', 'VP8'] as const;
export type WhipVideoCodec = (typeof WHIP_VIDEO_CODECS)[number];

export type OfferCheck =
  | { ok: true; videoCodec: WhipVideoCodec; hasAudio: boolean }
  | { ok: false; error: WhipRefusal; message: string };

/**
 * Reads an SDP offer far enough to refuse it with a clear reason before the WebRTC stack sees it:
 * garbage, an offer without video (a microphone alone cannot make a show), or a video codec
 * the packager cannot take.
 */
export function checkWhipOffer(sdp: string): OfferCheck {
  const lines = sdp.split(/\r?\n/).filter((line) => line.length > 0);
  if (lines[0] !== 'v=0' || !lines.some((line) => line.startsWith('o=')))
    return { ok: false, error: 'bad_offer', message: 'The body is not an SDP offer (RFC 8866).' };
  const sections = mediaSections(lines);
  const video = sections.filter((section) => section.kind === 'video' && section.port !== '0');
  if (video.length === 0)
    return { ok: false, error: 'no_video', message: 'The offer has no video: publish a camera or a screen.' };
  const offered = new Set(video.flatMap((section) => section.codecs));
  const videoCodec = WHIP_VIDEO_CODECS.find((codec) => offered.has(codec));
  if (!videoCodec)
    return {
      ok: false,
      error: 'unsupported_codec',
      message: `The offer's video codecs (${[...offered].join(', ') || 'none'}) are not supported: send H.264 or VP8.`,
    };
  const hasAudio = sections.some((section) => section.kind === 'audio' && section.codecs.includes('OPUS'));
  return { ok: true, videoCodec, hasAudio };
}

interface MediaSection {
  kind: string;
  port: string;
  /** Encoding names of its rtpmap lines, upper-case. */
  codecs: string[];
}

function mediaSections(lines: string[]): MediaSection[] {
  const sections: MediaSection[] = [];
  for (const line of lines) {
    if (line.startsWith('m=')) {
      const [kind = '', port = ''] = line.slice(2).split(' ');
      sections.push({ kind, port, codecs: [] });
      continue;
    }
    const rtpmap = /^a=rtpmap:\d+ ([^/\s]+)\//.exec(line);
    const current = sections.at(-1);
    if (rtpmap?.[1] && current) current.codecs.push(rtpmap[1].toUpperCase());
  }
  return sections;
}
