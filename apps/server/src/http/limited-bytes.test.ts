import { describe, expect, it } from 'vitest';
import { HttpError } from './errors.ts';
import { limitedBytes } from './register-call.ts';

async function* chunks(sizes: number[]) {
  for (const size of sizes) yield new Uint8Array(size);
}

async function total(body: AsyncIterable<Uint8Array>) {
  let bytes = 0;
  for await (const chunk of body) bytes += chunk.byteLength;
  return bytes;
}

describe('limitedBytes (streamed uploads)', () => {
  it('passes a body up to the limit through', async () => {
    expect(await total(limitedBytes(chunks([400, 600]), 1000))).toBe(1000);
  });

  it('stops a body that grows past the limit with a 413, whatever its declared length', async () => {
    const refused = await total(limitedBytes(chunks([400, 600, 1]), 1000)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).statusCode).toBe(413);
  });
});
