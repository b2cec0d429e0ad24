import { sql } from 'drizzle-orm';

import type { Db } from '@/platform/db';

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
  };
}
