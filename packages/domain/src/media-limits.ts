// What an uploaded image may be and the sizes it is stored at (issue 14: the studio's uploads).

/** The largest upload of an image: a phone's full-size photo fits, a raw camera file does not. */
export const MAX_IMAGE_UPLOAD_BYTES = 10 * 1024 * 1024;
/**
 * The most pixels an image may decode to. A small file can claim a huge canvas (a compressed
 * PNG of one colour); decoding it would take gigabytes, so it is refused from its header.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

/** The media types an image upload may declare; SVG is not one (it may carry script). */
export const IMAGE_UPLOAD_MEDIA_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
] as const;

/** What an image is for: it decides the widths it is stored at. */
export type ImagePurpose = 'product' | 'cover' | 'logo';

/**
 * The widths (px) each purpose is stored at, smallest first; the largest is the image's URL.
 * Product: the player's 72 px cards and 52 px thumbnails at 2× (160), its full-width gallery in
 * a ~360 px panel at 2× (720). Cover: the shop's 4:5 cards (~300 px, 2× 640) and a full-height
 * 9:16 poster on a phone (1080). Logo: the 40 px headers at 3× (160) and 2× of a 240 px mark.
 */
export const IMAGE_WIDTHS: Record<ImagePurpose, readonly number[]> = {
  product: [160, 720],
  cover: [640, 1080],
  logo: [160, 480],
};

/** The widths to write for an image `sourceWidth` px wide: never upscaled, never twice the same. */
export function variantWidths(purpose: ImagePurpose, sourceWidth: number): number[] {
  const widths = IMAGE_WIDTHS[purpose].map((width) => Math.min(width, sourceWidth));
  return [...new Set(widths)];
}

/** The largest product CSV an import takes: some 20,000 variant rows of a typical export. */
export const MAX_PRODUCT_CSV_BYTES = 5 * 1024 * 1024;
