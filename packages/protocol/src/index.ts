export * from './catalog.ts';
export * from './common.ts';
export * from './events.ts';
export * from './reads.ts';
export * from './store.ts';
