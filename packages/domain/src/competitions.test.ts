import { describe, expect, it } from 'vitest';
import {
  type CompetitionLike,
  type CompetitionViewer,
  competitionDescription,
  competitionViewerState,
  isCompetitionOverlayShown,
  isParticipationIgnored,
  overlayCompetition,
  sortCompetitions,
  stripMarkup,
} from './competitions.ts';

const competition = (uid: string, overrides: Partial<CompetitionLike> = {}): CompetitionLike => ({
  uid,
  name: `Competition ${uid}`,
  presentationPrimaryText: '',
  openForParticipation: true,
  playing: true,
  cues: [],
  ...overrides,
});
const viewer = (participated: string[] = [], dismissed: string[] = []): CompetitionViewer => ({
  competitionsParticipated: participated,
  competitionsDismissed: dismissed,
});

describe('isCompetitionOverlayShown', () => {
  it('needs playing, open, not dismissed and not participated', () => {
    expect(isCompetitionOverlayShown(competition('a'), viewer())).toBe(true);
    expect(isCompetitionOverlayShown(competition('a', { playing: false }), viewer())).toBe(false);
    expect(isCompetitionOverlayShown(competition('a', { openForParticipation: false }), viewer())).toBe(
      false,
    );
    expect(isCompetitionOverlayShown(competition('a'), viewer([], ['a']))).toBe(false);
    expect(isCompetitionOverlayShown(competition('a'), viewer(['a']))).toBe(false);
    expect(isCompetitionOverlayShown(competition('a'), viewer(['b'], ['c']))).toBe(true);
  });

  it('overlayCompetition picks the first qualifying one in list order', () => {
    const list = [
      competition('old', { cues: [{ start: 10 }] }),
      competition('new', { cues: [{ start: 50 }] }),
      competition('done', { cues: [{ start: 90 }] }),
    ];
    expect(overlayCompetition(list, viewer(['done']))?.uid).toBe('new');
    expect(overlayCompetition(list, viewer(['done'], ['new']))?.uid).toBe('old');
    expect(overlayCompetition(list, viewer(['done', 'old', 'new']))).toBeNull();
  });
});

describe('sortCompetitions', () => {
  it('shows open ones or participated ones: open first, then not participated, then latest cue', () => {
    const list = [
      competition('closed-participated', { openForParticipation: false, cues: [{ start: 500 }] }),
      competition('closed-not-participated', { openForParticipation: false }),
      competition('open-participated', { cues: [{ start: 900 }] }),
      competition('open-early', { cues: [{ start: 100 }, { start: 150 }] }),
      competition('open-late', { cues: [{ start: 300 }] }),
      competition('open-no-cue'),
    ];
    expect(
      sortCompetitions(list, viewer(['closed-participated', 'open-participated'])).map((c) => c.uid),
    ).toEqual(['open-late', 'open-early', 'open-no-cue', 'open-participated', 'closed-participated']);
  });

  it('keeps the given order on ties and does not change the input', () => {
    const list = [competition('x'), competition('y')];
    expect(sortCompetitions(list, viewer()).map((c) => c.uid)).toEqual(['x', 'y']);
    expect(list.map((c) => c.uid)).toEqual(['x', 'y']);
  });
});

describe('competitionDescription', () => {
  it('is the primary text without markup', () => {
    expect(
      competitionDescription({ name: 'N', presentationPrimaryText: '<p>Win a <b>bag</b> &amp; more</p>' }),
    ).toBe('Win a bag & more');
  });

  it('falls back to the name when the text is empty after stripping markup', () => {
    for (const text of ['', '   ', '<p></p>', '<p>&nbsp;</p>', '<br/><script>alert(1)</script>']) {
      expect(competitionDescription({ name: 'Spring raffle', presentationPrimaryText: text }), text).toBe(
        'Spring raffle',
      );
    }
  });

  it('removes inline tags without a space, so punctuation stays against its word', () => {
    expect(stripMarkup('Pick a <b>colour</b>!')).toBe('Pick a colour!');
    expect(stripMarkup('<i>Spring</i>, <span class="x">summer</span>.')).toBe('Spring, summer.');
    expect(stripMarkup('Win<a href="/x">now</a>')).toBe('Winnow');
  });

  it('turns block tags and line breaks into a space between words', () => {
    expect(stripMarkup('<p>First</p><p>Second</p>')).toBe('First Second');
    expect(stripMarkup('One<br>two<BR/>three')).toBe('One two three');
    expect(stripMarkup('<ul><li>Bag</li><li>Hat</li></ul>')).toBe('Bag Hat');
    expect(stripMarkup('<h2>Prize</h2><div>Answer <b>below</b>:</div>')).toBe('Prize Answer below:');
  });

  it('does not take a tag whose name only starts like a block tag for one', () => {
    expect(stripMarkup('a<param>b<pre>c')).toBe('ab c');
  });

  it('decodes numeric entities but never produces markup-looking text from a tag', () => {
    expect(stripMarkup('&#72;&#x69; <img src=x onerror=alert(1)>there')).toBe('Hi there');
    expect(stripMarkup('&#0; &bogus;')).toBe('&#0; &bogus;');
  });
});

describe('participation and state', () => {
  it('ignores empty text', () => {
    expect(isParticipationIgnored('')).toBe(true);
    expect(isParticipationIgnored(' \n\t ')).toBe(true);
    expect(isParticipationIgnored(' me ')).toBe(false);
  });

  it('goes participate → participated → winner', () => {
    const c = competition('a');
    expect(competitionViewerState(c, viewer())).toBe('participate');
    expect(competitionViewerState(c, viewer(['a']))).toBe('participated');
    expect(competitionViewerState(c, viewer(['a']), ['a'])).toBe('winner');
    expect(competitionViewerState(competition('b', { openForParticipation: false }), viewer())).toBe(
      'closed',
    );
  });

  it('is drawn once winners are drawn, entered or not, unless the viewer is told they won (issue 13 §8)', () => {
    const drawn = competition('a', { winners: [{ name: 'Ann' }] });
    expect(competitionViewerState(drawn, viewer())).toBe('drawn');
    expect(competitionViewerState(drawn, viewer(['a']))).toBe('drawn');
    expect(competitionViewerState(drawn, viewer(['a']), ['a'])).toBe('winner');
    expect(competitionViewerState(competition('a', { winners: [] }), viewer())).toBe('participate');
  });

  it('does not present a drawn competition in the overlay (issue 13 §8)', () => {
    const drawn = competition('a', { winners: [{ name: 'Ann' }] });
    expect(isCompetitionOverlayShown(drawn, viewer())).toBe(false);
    expect(overlayCompetition([drawn, competition('b')], viewer())?.uid).toBe('b');
  });
});
