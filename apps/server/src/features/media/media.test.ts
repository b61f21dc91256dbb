import { MAX_IMAGE_UPLOAD_BYTES } from '@vitrine/domain';
import { PageInput } from '@vitrine/protocol';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../http/errors.ts';
import { signInStaff } from '../../test-support/studio-staff.ts';
import { openTestApp } from '../../test-support/test-app.ts';

type TestApp = Awaited<ReturnType<typeof openTestApp>>;
let app: TestApp;
let owner: { authorization: string };

/** A photo-like JPEG: a gradient with EXIF (a camera model and GPS) that must not be served. */
async function photoJpeg(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 3) {
    const x = (i / 3) % width;
    pixels[i] = (x * 255) / width;
    pixels[i + 1] = 120;
    pixels[i + 2] = 200;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg()
    .withExif({ IFD0: { Model: 'Secret Camera' }, IFD3: { GPSLatitudeRef: 'N' } })
    .toBuffer();
}

const upload = (bytes: Buffer, contentType: string, headers = owner) =>
  app.server.inject({
    method: 'POST',
    url: '/staff/stores/media-store/product-images',
    headers: { ...headers, 'content-type': contentType },
    payload: bytes,
  });

beforeAll(async () => {
  app = await openTestApp();
  await app.services.stores.upsertPage(
    'media-store',
    PageInput.parse({ name: 'Media store', language: 'da', currency: 'DKK' }),
  );
  owner = (await signInStaff(app, 'media-store', 'owner')).headers;
});
afterAll(() => app.close());

describe('storeImage', () => {
  it('writes WebP at the product widths, never upscaled, and answers the largest', async () => {
    const stored = await app.services.media.storeImage('media-store', await photoJpeg(1600, 1200), 'product');
    expect(stored.variants.map((variant) => [variant.width, variant.height])).toEqual([
      [160, 120],
      [720, 540],
    ]);
    expect(stored).toMatchObject({ width: 720, height: 540 });
    expect(stored.url).toMatch(/^\/media\/media-store\/[A-Za-z0-9_-]{32}-720\.webp$/);

    const small = await app.services.media.storeImage('media-store', await photoJpeg(300, 200), 'product');
    expect(small.variants.map((variant) => variant.width)).toEqual([160, 300]);
  });

  it('names a file by its content: the same image twice is one file', async () => {
    const bytes = await photoJpeg(400, 400);
    const first = await app.services.media.storeImage('media-store', bytes, 'product');
    const again = await app.services.media.storeImage('media-store', bytes, 'product');
    expect(again.url).toBe(first.url);
  });

  it('refuses a text file posing as an image, and SVG', async () => {
    const text = Buffer.from('hello, I am not a picture');
    await expect(app.services.media.storeImage('media-store', text, 'product')).rejects.toMatchObject({
      statusCode: 415,
      message: 'The file is not an image (JPEG, PNG, WebP, GIF or AVIF).',
    });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>');
    await expect(app.services.media.storeImage('media-store', svg, 'product')).rejects.toMatchObject({
      statusCode: 415,
      message: 'Images must be JPEG, PNG, WebP, GIF or AVIF, not SVG.',
    });
  });

  it('refuses too many pixels from the header, before decoding', async () => {
    // 8000×6000 of one colour: 48 megapixels in a few hundred kilobytes.
    const huge = await sharp({
      create: { width: 8000, height: 6000, channels: 3, background: '#ffffff' },
      limitInputPixels: false,
    })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(huge.byteLength).toBeLessThan(MAX_IMAGE_UPLOAD_BYTES);
    const refused = await app.services.media.storeImage('media-store', huge, 'product').catch((e) => e);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ statusCode: 422, code: 'too_many_pixels' });
    expect(refused.message).toContain('8000×6000');
  });
});

describe('POST /staff/stores/:pageUid/product-images and GET /media/…', () => {
  it('stores an upload and serves it immutable, as WebP, without the EXIF', async () => {
    const response = await upload(await photoJpeg(1000, 800), 'image/jpeg');
    expect(response.statusCode).toBe(201);
    const { url, variants } = response.json() as { url: string; variants: { url: string }[] };
    expect(variants).toHaveLength(2);

    const served = await app.server.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    const metadata = await sharp(served.rawPayload).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 720, height: 576 });
    expect(metadata.exif).toBeUndefined();
  });

  it('answers a clear 4xx for a fake image, a wrong type and too many bytes', async () => {
    const fake = await upload(Buffer.from('GIF89a but really text'), 'image/png');
    expect(fake.statusCode).toBe(415);
    expect(fake.json().message).toContain('not an image');

    const pdf = await upload(Buffer.from('%PDF-1.4'), 'application/pdf');
    expect(pdf.statusCode).toBe(415);

    const tooLarge = await upload(Buffer.alloc(MAX_IMAGE_UPLOAD_BYTES + 1), 'image/jpeg');
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toEqual({
      error: 'payload_too_large',
      message: 'The body is larger than the 10 MB allowed.',
    });
  });

  it('lets hosts upload; moderators and other stores’ staff get 403', async () => {
    const image = await photoJpeg(200, 200);
    const host = await signInStaff(app, 'media-store', 'host');
    expect((await upload(image, 'image/jpeg', host.headers)).statusCode).toBe(201);
    const moderator = await signInStaff(app, 'media-store', 'moderator');
    expect((await upload(image, 'image/jpeg', moderator.headers)).statusCode).toBe(403);
    await app.services.stores.upsertPage(
      'other-store',
      PageInput.parse({ name: 'Other', language: 'en', currency: 'EUR' }),
    );
    const stranger = await signInStaff(app, 'other-store', 'owner');
    expect((await upload(image, 'image/jpeg', stranger.headers)).statusCode).toBe(403);
  });

  it('answers 404 for unknown and malformed keys', async () => {
    for (const url of [
      '/media/media-store/nothing-here.webp',
      '/media/..%2F..%2Fetc/passwd',
      '/media/a/b.svg',
    ]) {
      const response = await app.server.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
    }
  });
});
