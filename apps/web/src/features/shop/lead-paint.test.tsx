// @vitest-environment happy-dom
import { act } from 'preact/test-utils';
import { describe, expect, it } from 'vitest';
import { mountEachTest } from '../../test-support/mount-each-test.ts';
import { AfterLeadImage, LeadPaintProvider, useLeadCoverEvents } from './lead-paint.tsx';

function LeadCover() {
  return <img className="lead" src="/media/cover.jpg" alt="" {...useLeadCoverEvents()} />;
}

function Page({ hasLeadCover }: { hasLeadCover: boolean }) {
  return (
    <LeadPaintProvider hasLeadCover={hasLeadCover}>
      {hasLeadCover && <LeadCover />}
      <AfterLeadImage className="below" src="/media/mug.jpg" alt="Mug" />
    </LeadPaintProvider>
  );
}

/** Two frames and a task: the provider's "after the next frame, then a task". */
async function nextFrameAndTask() {
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('pictures below the fold after the lead paint', () => {
  const mounted = mountEachTest();
  const below = () => mounted.container.querySelector<HTMLImageElement>('img.below');

  it('gives a picture below the fold no address (so nothing is fetched) until the lead cover has loaded and painted', async () => {
    act(() => mounted.root.render(<Page hasLeadCover />));
    expect(below()?.hasAttribute('src')).toBe(false);
    expect(below()?.getAttribute('alt')).toBe('');

    await act(async () => {
      mounted.container.querySelector('img.lead')?.dispatchEvent(new Event('load'));
      // Still waiting in the load event's own turn: the picture is painted a frame later.
      expect(below()?.hasAttribute('src')).toBe(false);
      await nextFrameAndTask();
    });
    expect(below()?.getAttribute('src')).toBe('/media/mug.jpg');
    expect(below()?.getAttribute('alt')).toBe('Mug');
    expect(below()?.getAttribute('loading')).toBe('lazy');
  });

  it('lets them load when the lead cover fails, instead of waiting for ever', async () => {
    act(() => mounted.root.render(<Page hasLeadCover />));
    await act(async () => {
      mounted.container.querySelector('img.lead')?.dispatchEvent(new Event('error'));
      await nextFrameAndTask();
    });
    expect(below()?.getAttribute('src')).toBe('/media/mug.jpg');
  });

  it('holds nothing back on a page with no lead cover', () => {
    act(() => mounted.root.render(<Page hasLeadCover={false} />));
    expect(below()?.getAttribute('src')).toBe('/media/mug.jpg');
  });

  it('holds nothing back outside a page that has a lead cover (no provider)', () => {
    act(() => mounted.root.render(<AfterLeadImage className="below" src="/media/mug.jpg" alt="Mug" />));
    expect(below()?.getAttribute('src')).toBe('/media/mug.jpg');
  });
});
