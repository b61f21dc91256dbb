import { route } from '../player-routes.ts';

/** First-run setup, account recovery by e-mail and the operator's status read (studio/operator-calls.ts). */
export const OPERATOR_ROUTES = {
  setupStatus: route({ method: 'GET', path: '/staff/setup', auth: 'anonymous' }),
  completeSetup: route({ method: 'POST', path: '/staff/setup', auth: 'anonymous' }),
  requestSignInLink: route({ method: 'POST', path: '/functions/auth/requestSignInLink', auth: 'anonymous' }),
  requestPasswordReset: route({
    method: 'POST',
    path: '/functions/auth/requestPasswordReset',
    auth: 'anonymous',
  }),
  resetPassword: route({ method: 'POST', path: '/functions/auth/resetPassword', auth: 'anonymous' }),
  serverStatus: route({ method: 'GET', path: '/admin/status', auth: 'admin' }),
} as const;
