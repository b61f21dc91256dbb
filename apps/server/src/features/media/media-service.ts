import { createHash } from 'node:crypto';
import {
  IMAGE_UPLOAD_MEDIA_TYPES,
  type ImagePurpose,
  MAX_IMAGE_PIXELS,
  MAX_IMAGE_UPLOAD_BYTES,
  variantWidths,
} from '@vitrine/domain';
import sharp, { type Metadata } from 'sharp';
import { HttpError } from '../../http/errors.ts';
import type { MediaStore } from './media-store.ts';

/** Where stored media is served: `GET /media/<key>`. */
export const MEDIA_PATH_PREFIX = '/media/';

/** One stored size of an image. */
export interface ImageVariant {
  url: string;
  width: number;
  height: number;
}

/** A stored image: its URL (the largest size) and every size written. */
export interface StoredImage extends ImageVariant {
  variants: ImageVariant[];
}

/** The formats sharp reads that an upload may be; SVG and the like are refused. */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'heif']);
const ACCEPTED_NAMES = 'JPEG, PNG, WebP, GIF or AVIF';
/** WebP at this quality: photos look as the original at a third of a JPEG's bytes. */
const WEBP_QUALITY = 82;

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * Uploaded images: checked to really be an image of sane size, then re-encoded (which drops
 * EXIF and any other metadata, GPS positions included) as WebP at the widths the player shows
 * them, under content-addressed names so they are served as immutable.
 */
export function createMediaService(store: MediaStore) {
  return {
    /** The media types an upload call should declare (`binaryBody.mediaTypes`). */
    mediaTypes: IMAGE_UPLOAD_MEDIA_TYPES,

    /**
     * Stores an image of store `pageUid` for `purpose`; a 413 when over the byte limit, a 415
     * when it is not an image of an accepted format, a 422 when it has too many pixels.
     */
    async storeImage(pageUid: string, bytes: Uint8Array, purpose: ImagePurpose): Promise<StoredImage> {
      if (bytes.byteLength > MAX_IMAGE_UPLOAD_BYTES)
        throw new HttpError(
          413,
          'payload_too_large',
          `The image is larger than ${megabytes(MAX_IMAGE_UPLOAD_BYTES)}; upload a smaller one.`,
        );
      const { width, height } = await inspect(bytes);
      const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 32);
      const variants: ImageVariant[] = [];
      for (const targetWidth of variantWidths(purpose, width)) {
        const { data, info } = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS })
          .rotate() // Applies the EXIF orientation before the metadata is dropped.
          .resize({ width: targetWidth, withoutEnlargement: true })
          .webp({ quality: WEBP_QUALITY })
          .toBuffer({ resolveWithObject: true });
        const key = `${pageUid}/${hash}-${targetWidth}.webp`;
        await store.put(key, data);
        variants.push({ url: `${MEDIA_PATH_PREFIX}${key}`, width: info.width, height: info.height });
      }
      const largest = variants[variants.length - 1] ?? { url: '', width, height };
      return { ...largest, variants };
    },

    /** The bytes and media type of a stored file, or null. */
    async read(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
      const bytes = await store.get(key);
      if (!bytes) return null;
      return { bytes, contentType: key.endsWith('.jpg') ? 'image/jpeg' : 'image/webp' };
    },
  };
}

export type MediaService = ReturnType<typeof createMediaService>;

/** The upright size of an image, from its header only (nothing is decoded), or the 4xx why not. */
async function inspect(bytes: Uint8Array): Promise<{ width: number; height: number }> {
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes).metadata();
  } catch {
    throw new HttpError(415, 'unsupported_media_type', `The file is not an image (${ACCEPTED_NAMES}).`);
  }
  if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format) || !metadata.width || !metadata.height)
    throw new HttpError(
      415,
      'unsupported_media_type',
      `Images must be ${ACCEPTED_NAMES}${metadata.format ? `, not ${metadata.format.toUpperCase()}` : ''}.`,
    );
  const pixels = metadata.width * (metadata.pageHeight ?? metadata.height);
  if (pixels > MAX_IMAGE_PIXELS)
    throw new HttpError(
      422,
      'too_many_pixels',
      `The image is ${metadata.width}×${metadata.height} pixels; at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels are accepted.`,
    );
  // Orientations 5–8 turn the picture a quarter: its upright width is the stored height.
  const turned = (metadata.orientation ?? 1) >= 5;
  return turned
    ? { width: metadata.height, height: metadata.width }
    : { width: metadata.width, height: metadata.height };
}
