import { type AnyColumn, type SQL, and, asc, eq, sql } from 'drizzle-orm';

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

    /** Active users, as a scalar subquery (the dashboard reads it with its other totals). */
    activeCountSql: (tenantId: string): SQL<number> =>
      sql<number>`(select count(*)::int from ${users}
        where ${users.tenantId} = ${tenantId} and ${users.isActive})`,

    /** A user's name (full name, else username) by the caller's columns, as a scalar subquery. */
    displayNameSql: (tenantId: AnyColumn, userId: AnyColumn): SQL<string | null> =>
      sql<string | null>`(select coalesce(${users.fullName}, ${users.username}) from ${users}
        where ${users.tenantId} = ${tenantId} and ${users.id} = ${userId})`,

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
