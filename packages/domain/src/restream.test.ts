import { describe, expect, it } from 'vitest';
import {
  maskStreamKey,
  RESTREAM_SERVER_URL_PATTERN,
  RESTREAM_STREAM_KEY_PATTERN,
  redactSecret,
  restreamPublishUrl,
  restreamRetryDelayMs,
} from './restream.ts';

describe('restream destinations', () => {
  it('take the RTMP and RTMPS servers of the big platforms, and nothing ffmpeg would open otherwise', () => {
    for (const url of [
      'rtmp://a.rtmp.youtube.com/live2',
      'rtmps://live-api-s.facebook.com:443/rtmp/',
      'rtmps://ingest.global-contribute.live-video.net/app',
      'rtmp://127.0.0.1:19350/app',
    ])
      expect(RESTREAM_SERVER_URL_PATTERN.test(url), url).toBe(true);
    for (const url of [
      'file:///etc/passwd',
      'http://example.com/live',
      'rtmp://example.com',
      'rtmp://example.com/live stream',
      'rtmp://user:pass@example.com/live',
      'rtmp://example.com/live|file:/tmp/x',
      ' rtmp://example.com/live',
    ])
      expect(RESTREAM_SERVER_URL_PATTERN.test(url), url).toBe(false);
  });

  it('take keys with query parts, never with spaces or control characters', () => {
    expect(RESTREAM_STREAM_KEY_PATTERN.test('FB-1234567890?s_bl=1&s_psm=1&a=Abc')).toBe(true);
    expect(RESTREAM_STREAM_KEY_PATTERN.test('abcd efgh')).toBe(false);
    expect(RESTREAM_STREAM_KEY_PATTERN.test('abcd\nefgh')).toBe(false);
    expect(RESTREAM_STREAM_KEY_PATTERN.test('')).toBe(false);
  });

  it('publish to the server with the key as the stream name', () => {
    expect(restreamPublishUrl('rtmps://live-api-s.facebook.com:443/rtmp/', 'FB-1?s=1')).toBe(
      'rtmps://live-api-s.facebook.com:443/rtmp/FB-1?s=1',
    );
    expect(restreamPublishUrl('rtmp://a.rtmp.youtube.com/live2', 'abcd')).toBe(
      'rtmp://a.rtmp.youtube.com/live2/abcd',
    );
  });

  it('show a saved key by its last four characters only, and a short key not at all', () => {
    expect(maskStreamKey('xxxx-yyyy-zzzz-wwww')).toBe('••••wwww');
    expect(maskStreamKey('short-key')).toBe('••••');
  });

  it('redact the key from what ffmpeg says', () => {
    expect(redactSecret('rtmp://host/app/s3cret: I/O error (s3cret)', 's3cret')).toBe(
      'rtmp://host/app/[stream key]: I/O error ([stream key])',
    );
  });

  it('back off from 2 s to a minute between failed attempts', () => {
    expect([0, 1, 2, 3, 4, 5, 50].map(restreamRetryDelayMs)).toEqual([
      2000, 2000, 5000, 10000, 30000, 60000, 60000,
    ]);
  });
});
