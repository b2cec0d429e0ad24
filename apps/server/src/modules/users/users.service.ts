import type { CreateUserBody, UpdateUserBody } from '@boomgate/contracts/users';

import type { AuditService } from '@/modules/audit';
import type { Actor, SessionsService } from '@/modules/sessions';
import type { Clock } from '@/platform/clock';
import type { Database, DbExecutor } from '@/platform/db';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from '@/platform/common-passwords';
import { AppError, isUniqueViolation } from '@/platform/errors';
import { newId } from '@/platform/ids';
import { hashPassword } from '@/platform/passwords';

import type { UsersRepository } from './users.repository';
import type { NewUserRow, UserRow } from './users.table';

export type UsersServiceDeps = {
  database: Pick<Database, 'withTenant'>;
  repository: UsersRepository;
  sessions: Pick<SessionsService, 'endAllSessionsOf' | 'assertRecentlyAuthenticated'>;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  passwordMinLength: number;
  /** Issue 16: the sites each user works at (the sites module). */
  siteAssignments?: {
    assignUserSites(
      tx: DbExecutor,
      tenantId: string,
      userId: string,
      siteIds: string[],
    ): Promise<void>;
    siteIdsOfUsers(
      tx: DbExecutor,
      tenantId: string,
      userIds: readonly string[],
    ): Promise<Map<string, string[]>>;
  };
};

export type UsersService = ReturnType<typeof createUsersService>;

const USERNAME_TAKEN = 'Username already exists';
// Another tenant's id answers exactly like an id that does not exist.
const notFound = () => new AppError('NOT_FOUND', 'User not found.');

export function createUsersService({
  database,
  repository,
  sessions,
  audit,
  clock,
  passwordMinLength,
  siteAssignments,
}: UsersServiceDeps) {
  /** The user with their site ids, when the sites module is wired. */
  async function withSites<Row extends UserRow>(tx: DbExecutor, row: Row) {
    if (!siteAssignments) return row;
    const byUser = await siteAssignments.siteIdsOfUsers(tx, row.tenantId, [row.id]);
    return { ...row, siteIds: byUser.get(row.id) ?? [] };
  }

  async function assignSites(tx: DbExecutor, user: UserRow, siteIds: string[] | undefined) {
    if (siteIds === undefined) return;
    if (!siteAssignments) throw new AppError('INVALID', 'Sites are not available.');
    await siteAssignments.assignUserSites(tx, user.tenantId, user.id, siteIds);
  }

  function assertPasswordPolicy(password: string) {
    if (password.length < passwordMinLength) {
      throw new AppError('INVALID', `Password must be at least ${passwordMinLength} characters`);
    }
    if (isCommonPassword(password)) throw new AppError('INVALID', COMMON_PASSWORD_MESSAGE);
  }

  function assertMayManage(actor: Actor, target: UserRow | undefined): asserts target is UserRow {
    if (!target) throw notFound();
    if (target.role === 'super_admin' && actor.role !== 'super_admin') {
      throw new AppError('FORBIDDEN', 'Only a Super Admin can change a Super Admin account.');
    }
  }

  async function insertUser(
    tx: DbExecutor,
    row: Omit<NewUserRow, 'id' | 'passwordHash'> & { password: string },
  ) {
    assertPasswordPolicy(row.password);
    const passwordHash = await hashPassword(row.password);
    try {
      // A savepoint keeps the caller's transaction usable after a duplicate username.
      return await tx.transaction((savepoint) =>
        repository.insert(savepoint, {
          ...row,
          id: newId(),
          passwordHash,
          passwordChangedAt: clock.now(),
        }),
      );
    } catch (error) {
      if (isUniqueViolation(error, 'users_username_unique'))
        throw new AppError('CONFLICT', USERNAME_TAKEN);
      throw error;
    }
  }

  async function setActive(actor: Actor, id: string, isActive: boolean, ip: string | undefined) {
    if (id === actor.userId) {
      throw new AppError(
        'FORBIDDEN',
        `You cannot ${isActive ? 'reactivate' : 'deactivate'} your own account.`,
      );
    }
    return database.withTenant(actor.tenantId, async (tx) => {
      assertMayManage(actor, await repository.find(tx, actor.tenantId, id));
      const updated = await repository.update(tx, actor.tenantId, id, {
        isActive,
        updatedAt: clock.now(),
      });
      if (!updated) throw notFound();
      if (!isActive) await sessions.endAllSessionsOf(tx, actor.tenantId, id);
      await audit.record(tx, {
        tenantId: actor.tenantId,
        actorUserId: actor.userId,
        action: isActive ? 'user.reactivated' : 'user.deactivated',
        targetType: 'user',
        targetId: id,
        ip,
      });
      return updated;
    });
  }

  return {
    /** Used by registration: the first user of a new tenant, inside its transaction. */
    insertUser,

    listUsers: (actor: Actor) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const rows = await repository.list(tx, actor.tenantId);
        if (!siteAssignments) return rows;
        const byUser = await siteAssignments.siteIdsOfUsers(
          tx,
          actor.tenantId,
          rows.map((row) => row.id),
        );
        return rows.map((row) => ({ ...row, siteIds: byUser.get(row.id) ?? [] }));
      }),

    async createUser(actor: Actor, body: CreateUserBody, ip?: string) {
      if (body.role === 'super_admin' && actor.role !== 'super_admin') {
        throw new AppError('FORBIDDEN', 'Only a Super Admin can assign the Super Admin role.');
      }
      return database.withTenant(actor.tenantId, async (tx) => {
        const user = await insertUser(tx, {
          tenantId: actor.tenantId,
          username: body.username,
          password: body.password,
          fullName: body.fullName ?? null,
          email: body.email ?? null,
          role: body.role,
          // The admin chose this password: the user must replace it at first sign-in.
          mustChangePassword: true,
        });
        await assignSites(tx, user, body.siteIds);
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'user.created',
          targetType: 'user',
          targetId: user.id,
          ip,
          details: { role: user.role, ...(body.siteIds && { siteIds: body.siteIds }) },
        });
        return withSites(tx, user);
      });
    },

    async updateUser(actor: Actor, id: string, body: UpdateUserBody, ip?: string) {
      if (body.role === 'super_admin' && actor.role !== 'super_admin') {
        throw new AppError('FORBIDDEN', 'Only a Super Admin can assign the Super Admin role.');
      }
      if (body.role !== undefined && id === actor.userId) {
        throw new AppError('FORBIDDEN', 'You cannot change your own role.');
      }
      // SEC-25: setting a password needs the admin's own password given recently (no hashing first).
      if (body.password !== undefined) sessions.assertRecentlyAuthenticated(actor);
      if (body.password !== undefined) assertPasswordPolicy(body.password);
      const passwordHash =
        body.password === undefined ? undefined : await hashPassword(body.password);

      return database.withTenant(actor.tenantId, async (tx) => {
        const target = await repository.find(tx, actor.tenantId, id);
        assertMayManage(actor, target);
        // SEC-25: so does changing an email (the edit form sends the unchanged one back too).
        if (body.email !== undefined && body.email !== target.email) {
          sessions.assertRecentlyAuthenticated(actor);
        }
        const now = clock.now();
        const updated = await repository.update(tx, actor.tenantId, id, {
          ...(body.fullName !== undefined && { fullName: body.fullName }),
          ...(body.email !== undefined && { email: body.email }),
          ...(body.role !== undefined && { role: body.role }),
          // An admin reset: the old sessions end and the user picks a new password at sign-in.
          ...(passwordHash !== undefined && {
            passwordHash,
            mustChangePassword: true,
            passwordChangedAt: now,
          }),
          updatedAt: now,
        });
        if (!updated) throw notFound();
        await assignSites(tx, updated, body.siteIds);
        if (passwordHash !== undefined) await sessions.endAllSessionsOf(tx, actor.tenantId, id);
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'user.updated',
          targetType: 'user',
          targetId: id,
          ip,
          details: {
            fields: Object.keys(body),
            ...(body.siteIds && { siteIds: body.siteIds }),
          },
        });
        return withSites(tx, updated);
      });
    },

    deactivateUser: (actor: Actor, id: string, ip?: string) => setActive(actor, id, false, ip),
    reactivateUser: (actor: Actor, id: string, ip?: string) => setActive(actor, id, true, ip),

    /** For the dashboard: a scalar subquery for its statement, in the caller's tenant transaction. */
    activeCountSql: (tenantId: string) => repository.activeCountSql(tenantId),

    /** For lists that show who acted (the audit viewer): a scalar subquery over their columns. */
    displayNameSql: (...args: Parameters<UsersRepository['displayNameSql']>) =>
      repository.displayNameSql(...args),

    /** For sign-in and password changes, inside the caller's tenant transaction. */
    findById: (tx: DbExecutor, tenantId: string, userId: string) =>
      repository.find(tx, tenantId, userId),
    updateById: (...args: Parameters<UsersRepository['update']>) => repository.update(...args),
    assertPasswordPolicy,
  };
}
