import { describe, expect, it } from 'vitest';
import { isIosSocialInAppBrowser, paymentLinkForBrowser } from './payment-link.ts';

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const IPHONE_INSTAGRAM =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 326.0.3.30.91 (iPhone14,5; iOS 17_4; en_US; en; scale=3.00; 1170x2532; 584370432)';
const IPHONE_FACEBOOK =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBDV/iPhone13,2;FBMD/iPhone;FBSN/iOS;FBSV/16.6;FBSS/3;FBID/phone;FBLC/da_DK;FBOP/5]';
const IPAD_TIKTOK =
  'Mozilla/5.0 (iPad; CPU OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 musical_ly_32.5.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/en Region/DK';
const ANDROID_INSTAGRAM =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0.0.0 Mobile Safari/537.36 Instagram 326.0.0.42.90 Android';

const PAY = 'https://shop.example/payments/test/pay/abc?x=1';

describe('paymentLinkForBrowser (spec §7 payment links in iOS social in-app browsers)', () => {
  it('swaps the secure scheme for Safari in iOS social in-app browsers', () => {
    for (const agent of [IPHONE_INSTAGRAM, IPHONE_FACEBOOK, IPAD_TIKTOK]) {
      expect(isIosSocialInAppBrowser(agent)).toBe(true);
      expect(paymentLinkForBrowser(PAY, agent)).toBe(
        'x-safari-https://shop.example/payments/test/pay/abc?x=1',
      );
    }
  });

  it('leaves links alone in Safari and on Android', () => {
    expect(paymentLinkForBrowser(PAY, IPHONE_SAFARI)).toBe(PAY);
    expect(paymentLinkForBrowser(PAY, ANDROID_INSTAGRAM)).toBe(PAY);
    expect(paymentLinkForBrowser(PAY, '')).toBe(PAY);
  });

  it('swaps only a secure scheme', () => {
    expect(paymentLinkForBrowser('http://localhost:3000/pay', IPHONE_INSTAGRAM)).toBe(
      'http://localhost:3000/pay',
    );
    expect(paymentLinkForBrowser('/payments/test/pay/abc', IPHONE_INSTAGRAM)).toBe('/payments/test/pay/abc');
  });
});
