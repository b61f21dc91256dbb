import { data } from 'react-router';
import { ApiError } from './api.ts';

/**
 * Turns "no such thing" answers (404, or 400 for an id that cannot exist) into the route's
 * not-found response; other failures propagate to the route's error page.
 */
export function rethrowAsNotFound(error: unknown): never {
  if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
    throw data(error.message, { status: 404 });
  }
  throw error;
}
