// @vitest-environment happy-dom
import i18next from 'i18next';
import { act } from 'preact/test-utils';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { mountEachTest } from '../../test-support/mount-each-test.ts';
import { PlayerShell, type PlayerShellProps } from './player-shell.tsx';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: 'en',
    resources: { en: { translation: { player: { menu: 'Show menu', close: 'Close' } } } },
  });
});

const mounted = mountEachTest();

function render(overrides: Partial<PlayerShellProps> = {}) {
  const props: PlayerShellProps = {
    fit: { layout: 'desktop', maxHeight: null },
    style: { color: 'rgb(1, 2, 3)' },
    data: { 'data-tab': 'products', 'data-show-state': 'live' },
    video: <div data-slot="video" />,
    overVideo: <p data-slot="over-video">Now showing</p>,
    menu: <button type="button">Products</button>,
    panelLabel: 'Autumn living',
    tabs: <button type="button">Comments</button>,
    panel: <p data-slot="panel">Linen shirt</p>,
    panelFooter: <p data-slot="footer">Powered by Vitrine</p>,
    dialog: <dialog data-slot="dialog" />,
    sheet: null,
    ...overrides,
  };
  act(() =>
    mounted.root.render(
      <I18nextProvider i18n={i18n}>
        <PlayerShell {...props} />
      </I18nextProvider>,
    ),
  );
  const player = mounted.container.querySelector<HTMLElement>('main.player');
  if (!player) throw new Error('no player root');
  return player;
}

describe('PlayerShell (the player layout with slots)', () => {
  it('places each slot where the layout has it', () => {
    const player = render();
    expect(player.querySelector('.player__stage > [data-slot="video"]')).not.toBeNull();
    expect(player.querySelector('.player__stage > [data-slot="over-video"]')?.textContent).toBe(
      'Now showing',
    );
    const menu = player.querySelector('.player__stage > nav.mobile-menu');
    expect(menu?.getAttribute('aria-label')).toBe('Show menu');
    expect(menu?.querySelector('button')?.textContent).toBe('Products');
    const panel = player.querySelector('section.player__panel');
    expect(panel?.getAttribute('aria-label')).toBe('Autumn living');
    expect(panel?.querySelector('.player__tabs[role="tablist"] > button')?.textContent).toBe('Comments');
    expect(
      panel?.querySelector('.player__panel-body[role="tabpanel"] > [data-slot="panel"]')?.textContent,
    ).toBe('Linen shirt');
    expect(panel?.lastElementChild?.getAttribute('data-slot')).toBe('footer');
    expect(player.querySelector(':scope > [data-slot="dialog"]')).not.toBeNull();
    // No sheet unless one is given.
    expect(player.querySelector('.mobile-sheet')).toBeNull();
  });

  it('carries the layout (phone or desktop), the flags and the height that fits the host window', () => {
    const desktop = render();
    expect(desktop.getAttribute('data-layout')).toBe('desktop');
    expect(desktop.getAttribute('data-tab')).toBe('products');
    expect(desktop.getAttribute('data-show-state')).toBe('live');
    expect(desktop.style.color).toBe('rgb(1, 2, 3)');
    expect(desktop.style.maxHeight).toBe('');
    expect(desktop.getAttribute('data-fitted')).toBe('false');

    const phone = render({ fit: { layout: 'phone', maxHeight: 420 } });
    expect(phone.getAttribute('data-layout')).toBe('phone');
    expect(phone.style.maxHeight).toBe('420px');
    expect(phone.getAttribute('data-fitted')).toBe('true');
    expect(phone.style.color).toBe('rgb(1, 2, 3)');
  });

  it('shows a sheet with its title, body and a close button', () => {
    let closed = 0;
    let capturedClicks = 0;
    const player = render({
      sheet: {
        title: 'Cart',
        body: <button type="button">Check out</button>,
        onClose: () => {
          closed++;
        },
        onBodyClickCapture: () => {
          capturedClicks++;
        },
      },
    });
    const sheet = player.querySelector('section.mobile-sheet');
    expect(sheet?.querySelector('.mobile-sheet__header button')?.textContent).toBe('Close');
    expect(sheet?.getAttribute('aria-label')).toBe('Cart');
    expect(sheet?.querySelector('.mobile-sheet__header h2')?.textContent).toBe('Cart');
    act(() => sheet?.querySelector<HTMLButtonElement>('.mobile-sheet__body button')?.click());
    expect(capturedClicks).toBe(1);
    act(() => sheet?.querySelector<HTMLButtonElement>('.mobile-sheet__header button')?.click());
    expect(closed).toBe(1);
  });
});
