/**
 * A libwebrtc publisher in its own process (so its encoder's CPU is not the server's): publishes
 * synthetic 720p30 video and a tone over WHIP until killed. Prints its WHIP status on stdout.
 *
 *   node --import tsx bench/whip-ingest/publisher.ts <whip url> <stream key>
 */
import { publishOverWhip } from '../../apps/server/src/test-support/whip-test-publisher.ts';

const [url, key] = process.argv.slice(2);
if (!url || !key) throw new Error('usage: publisher.ts <whip url> <stream key>');
const publisher = await publishOverWhip({ url, key, width: 1280, height: 720, noise: true });
process.stdout.write(`${publisher.status}\n`);
if (publisher.status !== 201) process.exit(1);
await publisher.connected();
process.stdout.write('connected\n');
process.on('SIGTERM', () => {
  publisher.stop();
  process.exit(0);
});
