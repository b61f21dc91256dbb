export * from './analytics-calls.ts';
export * from './catalogue-calls.ts';
export * from './live-calls.ts';
export * from './order-calls.ts';
export * from './settings-calls.ts';
export * from './show-calls.ts';
export * from './staff-calls.ts';
export * from './studio-routes.ts';
