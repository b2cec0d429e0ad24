import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

import { signedOut } from './handlers';

/**
 * The default world: nobody is signed in, and no driver has a safety induction (the gate screens
 * ask for it whenever they know an ID number). Tests add handlers with server.use().
 */
export const server = setupServer(
  signedOut(),
  http.get('/api/induction/status', () =>
    HttpResponse.json({ status: 'none', passedAt: null, validUntil: null }),
  ),
);
