// What a benchmark's simulated LL-HLS player reads from a playlist (bench/live/run.ts, --part ll-viewers).

/**
 * Where an LL-HLS player asks next (RFC 8216bis §6.2.5.2): the open segment's media sequence
 * number (the playlist's MEDIA-SEQUENCE plus its whole segments) and the index of the part after
 * the last one listed for it; with the newest listed part's URI, which the player then loads.
 */
export function nextBlockingRequest(
  playlist: string,
): { msn: number; part: number; newestPart: string | null } | null {
  const sequence = /#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist);
  if (!sequence) return null;
  const lines = playlist.split('\n');
  let wholeSegments = 0;
  let partsAfterLastSegment = 0;
  let newestPart: string | null = null;
  for (const line of lines) {
    if (line.startsWith('#EXT-X-SKIP:'))
      wholeSegments += Number(/SKIPPED-SEGMENTS=(\d+)/.exec(line)?.[1] ?? 0);
    else if (line.startsWith('#EXT-X-PART:')) {
      partsAfterLastSegment += 1;
      newestPart = /URI="([^"]+)"/.exec(line)?.[1] ?? newestPart;
    } else if (line !== '' && !line.startsWith('#')) {
      wholeSegments += 1;
      partsAfterLastSegment = 0;
    }
  }
  return { msn: Number(sequence[1]) + wholeSegments, part: partsAfterLastSegment, newestPart };
}
