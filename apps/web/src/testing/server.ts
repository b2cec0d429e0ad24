import { setupServer } from 'msw/node';

import { signedOut } from './handlers';

/** The default world: nobody is signed in. Tests add handlers with server.use(). */
export const server = setupServer(signedOut());
