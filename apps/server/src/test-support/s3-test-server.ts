import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3StoreSettings } from '../config.ts';

/** s3rver checks request signatures against this key pair. */
const S3RVER_KEY = 'S3RVER';

export interface TestS3Server {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  bucket: string;
  /** Settings of a store in the bucket (path-style, s3rver's keys), to spread and adjust. */
  settings: S3StoreSettings;
  /** The same as VITRINE_S3_* environment variables, for a server started by the test. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Runs s3rver on a free loopback port and prints the port. */
const S3RVER_SCRIPT = `
const S3rver = require(process.argv[1]);
new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: process.argv[2], configureBuckets: [{ name: process.argv[3] }] })
  .run()
  .then((address) => console.log(JSON.stringify({ port: address.port })));
`;

/**
 * A real S3 protocol server on loopback for the tests of the S3 segment store: s3rver, a Koa
 * server that answers the S3 REST API (signed requests, ListObjectsV2 with continuation tokens,
 * 404 NoSuchKey) from a folder, so the AWS SDK talks to it exactly as it would to AWS S3, MinIO or
 * R2. It runs in a process of its own, with OpenSSL's legacy provider: its continuation tokens
 * are DES-encrypted, which OpenSSL 3 leaves out by default.
 */
export async function startTestS3Server(bucket = 'vitrine-test'): Promise<TestS3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'vitrine-s3-'));
  const s3rver = createRequire(import.meta.url).resolve('s3rver');
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', '-e', S3RVER_SCRIPT, s3rver, directory, bucket],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const line = text.split('\n')[0];
      if (text.includes('\n') && line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code}) before it listened`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    settings: {
      bucket,
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY },
      forcePathStyle: true,
      prefix: '',
      publicUrl: null,
    },
    env: {
      VITRINE_S3_BUCKET: bucket,
      VITRINE_S3_ENDPOINT: endpoint,
      VITRINE_S3_ACCESS_KEY_ID: S3RVER_KEY,
      VITRINE_S3_SECRET_ACCESS_KEY: S3RVER_KEY,
    },
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
