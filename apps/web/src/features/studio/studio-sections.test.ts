import { describe, expect, it } from 'vitest';
import { openingSection } from './studio-sections.ts';

describe('where the studio opens', () => {
  it('opens on the live show’s Go live page for hosts and owners while a show is live', () => {
    expect(openingSection('owner', 'show-1')).toBe('live/show-1');
    expect(openingSection('host', 'show 2')).toBe('live/show%202');
  });

  it('opens on the first section otherwise, and a moderator never on Live', () => {
    expect(openingSection('owner', null)).toBe('shows');
    expect(openingSection('moderator', 'show-1')).toBe('shows');
  });
});
