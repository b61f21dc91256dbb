import { createRedisChangeBus } from '../realtime/redis-change-bus.ts';

/**
 * A change bus in a process of its own, with Node's default for an unhandled rejection (the
 * process ends, as a server's would): `node --import tsx bus-child.ts <redis url> <key prefix>
 * <connection name> <topic>`. It follows `topic` and prints one JSON line when it does, then one
 * per batch delivered; it closes the bus and exits 0 when its standard input ends.
 */
const [url, keyPrefix, connectionName, topic] = process.argv.slice(2);
if (!url || !keyPrefix || !connectionName || !topic)
  throw new Error('usage: bus-child.ts <redis url> <key prefix> <connection name> <topic>');
const bus = await createRedisChangeBus({
  url,
  keyPrefix,
  connectionName,
  // What the bus reports goes to standard error, where the test shows it if the process fails.
  onError: (error) => process.stderr.write(`bus: ${error.message}\n`),
});
await bus.listen(topic, (batch) => {
  process.stdout.write(`${JSON.stringify({ delivered: batch.changes.map((change) => change.docId) })}\n`);
});
process.stdout.write(`${JSON.stringify({ following: topic })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void bus.close().then(() => process.exit(0));
});
