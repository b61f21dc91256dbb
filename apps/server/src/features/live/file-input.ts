import { premiereOffsetSeconds, premierePlayedOut } from '@vitrine/domain';
import type { MediaFileInput } from '@vitrine/protocol';
import type { PublishInput } from './publish-session.ts';

/**
 * A file played as a live input (a premiere's uploaded video): from its current point at each
 * packager run, at the video's own pace (`-re`, as a live encoder sends it), finished once its
 * time has played out. Described by `file` alone, so a media worker in another process builds the
 * same input from the description.
 */
export function filePublishInput(
  file: MediaFileInput,
  now: () => number,
): PublishInput & { file: MediaFileInput } {
  return {
    file,
    // H.264 is passed through; anything else is transcoded by the packager.
    videoCodec: file.videoCodec,
    open: () => {
      const offset = premiereOffsetSeconds(file.startsAt, file.durationSeconds, now()) ?? 0;
      return { args: ['-re', '-ss', offset.toFixed(3), '-i', file.path] };
    },
    playedOut: () => premierePlayedOut(file.startsAt, file.durationSeconds, now()),
  };
}
