export * from './constants.ts';
export * from './duration.ts';
export * from './event-visibility.ts';
export * from './locale.ts';
export * from './merge-changes.ts';
export * from './money.ts';
export * from './numeric.ts';
export * from './player-settings.ts';
