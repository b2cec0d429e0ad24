/**
 * Sessions: server-side sign-in sessions behind an HttpOnly cookie, with idle and absolute
 * timeouts enforced by the database function that resolves them. Owns: sessions.
 */
import type { Clock } from '@/platform/clock';
import type { Db } from '@/platform/db';

import { createSessionsRepository } from './sessions.repository';
import { type SessionPolicy, createSessionsService } from './sessions.service';

export type { Actor, SessionPolicy, SessionsService } from './sessions.service';
export type { MfaPending } from './sessions.repository';

export function createSessionsModule(deps: {
  db: Db;
  clock: Clock;
  secret: string;
  policy: SessionPolicy;
}) {
  return {
    service: createSessionsService({ ...deps, repository: createSessionsRepository(deps.db) }),
  };
}
