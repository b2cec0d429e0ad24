import { and, asc, count, eq } from 'drizzle-orm';

import { type DbExecutor, takeOne } from '@/platform/db';

import { type NewUserRow, type UserRow, users } from './users.table';

export type UsersRepository = ReturnType<typeof createUsersRepository>;

export function createUsersRepository() {
  return {
    list: (tx: DbExecutor, tenantId: string): Promise<UserRow[]> =>
      tx
        .select()
        .from(users)
        .where(eq(users.tenantId, tenantId))
        .orderBy(asc(users.createdAt), asc(users.username)),

    async find(tx: DbExecutor, tenantId: string, id: string): Promise<UserRow | undefined> {
      const rows = await tx
        .select()
        .from(users)
        .where(and(eq(users.tenantId, tenantId), eq(users.id, id)))
        .limit(1);
      return rows[0];
    },

    async countActive(tx: DbExecutor, tenantId: string): Promise<number> {
      const [row] = await tx
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.tenantId, tenantId), eq(users.isActive, true)));
      return row?.n ?? 0;
    },

    async insert(tx: DbExecutor, row: NewUserRow): Promise<UserRow> {
      return takeOne(await tx.insert(users).values(row).returning());
    },

    async update(
      tx: DbExecutor,
      tenantId: string,
      id: string,
      patch: Partial<Omit<NewUserRow, 'tenantId' | 'id' | 'username'>>,
    ): Promise<UserRow | undefined> {
      const rows = await tx
        .update(users)
        .set(patch)
        .where(and(eq(users.tenantId, tenantId), eq(users.id, id)))
        .returning();
      return rows[0];
    },
  };
}
