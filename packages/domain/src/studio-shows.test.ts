import { describe, expect, it } from 'vitest';
import {
  canUnpublishShow,
  showCalendarPath,
  showEmbedSnippet,
  showGroup,
  showStorefrontPath,
} from './studio-shows.ts';

describe('showGroup', () => {
  it('lists drafts under drafts whatever their video status', () => {
    expect(showGroup('draft', 'planned')).toBe('draft');
    expect(showGroup('draft', 'live')).toBe('draft');
  });

  it('lists published shows by their status', () => {
    expect(showGroup('public', 'planned')).toBe('upcoming');
    expect(showGroup('private', 'live')).toBe('live');
    expect(showGroup('public', 'vod')).toBe('past');
  });
});

describe('canUnpublishShow', () => {
  it('lets a show become a draft again only before it has been live', () => {
    expect(canUnpublishShow('planned')).toBe(true);
    expect(canUnpublishShow('live')).toBe(false);
    expect(canUnpublishShow('vod')).toBe(false);
  });
});

describe('show links', () => {
  const show = { pageUid: 'shop', campaignUid: 'camp-1', eventId: 'ev_1' };

  it('points at the event on the storefront and at its calendar file', () => {
    expect(showStorefrontPath(show)).toBe('/widget/shop/campaign/camp-1/event/ev_1');
    expect(showCalendarPath('ev_1')).toBe('/calendar/ev_1/show.ics');
  });

  it('embeds the show inline with the SDK of this server', () => {
    const snippet = showEmbedSnippet('https://live.example.com', show);
    expect(snippet).toContain('<script src="https://live.example.com/sdk.js"></script>');
    expect(snippet).toContain('<div id="vitrine-show"></div>');
    expect(snippet).toContain(
      'Vitrine.init({"pageUid":"shop","campaignUid":"camp-1","eventUid":"ev_1","mode":"inline","container":"#vitrine-show"})',
    );
  });

  it('cannot be broken out of by an id', () => {
    const snippet = showEmbedSnippet('https://x', { ...show, pageUid: '</script><script>alert(1)' });
    expect(snippet.match(/<\/script>/g)).toHaveLength(2);
  });
});
