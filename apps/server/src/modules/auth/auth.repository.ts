import { eq, inArray, sql } from 'drizzle-orm';

import type { Db } from '@/platform/db';

import { authThrottle } from './auth.table';
import type { ThrottleState } from './login-throttle';

export type LoginCandidate = {
  tenantId: string;
  userId: string;
  passwordHash: string;
  isActive: boolean;
};

export type AuthRepository = ReturnType<typeof createAuthRepository>;

export function createAuthRepository(db: Db) {
  return {
    /** Cross-tenant by necessity: the SECURITY DEFINER function auth_find_login. */
    async findLoginCandidate(username: string): Promise<LoginCandidate | undefined> {
      const result = await db.execute<{
        tenant_id: string;
        user_id: string;
        password_hash: string;
        is_active: boolean;
      }>(sql`select * from auth_find_login(${username})`);
      const row = result.rows[0];
      return (
        row && {
          tenantId: row.tenant_id,
          userId: row.user_id,
          passwordHash: row.password_hash,
          isActive: row.is_active,
        }
      );
    },

    async findThrottles(keys: string[]): Promise<Map<string, ThrottleState>> {
      const rows = await db.select().from(authThrottle).where(inArray(authThrottle.key, keys));
      return new Map(rows.map((row) => [row.key, row]));
    },

    async saveThrottle(key: string, state: ThrottleState) {
      await db
        .insert(authThrottle)
        .values({ key, ...state })
        .onConflictDoUpdate({ target: authThrottle.key, set: state });
    },

    async clearThrottle(key: string) {
      await db.delete(authThrottle).where(eq(authThrottle.key, key));
    },
  };
}
