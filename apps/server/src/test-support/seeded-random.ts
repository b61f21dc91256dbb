/**
 * A deterministic stand-in for Math.random (mulberry32): tests that need varied input draw it
 * from a fixed seed, so a failure repeats on the next run instead of vanishing.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** An integer in [min, max) from `random`, with node:crypto randomInt's signature. */
export function seededRandomInt(seed: number): (min: number, max: number) => number {
  const random = seededRandom(seed);
  return (min, max) => min + Math.floor(random() * (max - min));
}
