import { and, eq, sql } from 'drizzle-orm';

import type { Role } from '@boomgate/contracts/roles';

import { mfaPasskeys, mfaRecoveryCodes, mfaTotp } from '@/modules/mfa/mfa.table';
import { tenants } from '@/modules/tenants/tenants.table';
import { users } from '@/modules/users/users.table';
import type { Database } from '@/platform/db';
import { newId } from '@/platform/ids';
import { hashPassword } from '@/platform/passwords';

/** Finds a tenant by name or creates it. Runs as the schema owner (operator commands only). */
export async function ensureTenant(database: Database, name: string): Promise<string> {
  const [existing] = await database.db
    .select()
    .from(tenants)
    .where(eq(tenants.name, name))
    .limit(1);
  if (existing) return existing.id;
  const id = newId();
  await database.db.insert(tenants).values({ id, name });
  return id;
}

/**
 * Creates the user, or resets role, password and active state when the username exists. A reset
 * also removes the user's second factors (SEC-26): this is how an operator lets a super_admin who
 * lost their phone and recovery codes back in; they set a new factor up at the next sign-in.
 */
export async function upsertUser(
  database: Database,
  user: { tenantId: string; username: string; password: string; fullName: string; role: Role },
): Promise<'created' | 'updated'> {
  const passwordHash = await hashPassword(user.password);
  const username = user.username.trim().toLowerCase();
  const [existing] = await database.db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${username}`)
    .limit(1);
  if (existing && existing.tenantId !== user.tenantId) {
    throw new Error(`The username ${username} belongs to another organization.`);
  }
  if (existing) {
    await database.db
      .update(users)
      .set({
        passwordHash,
        role: user.role,
        fullName: user.fullName,
        isActive: true,
        mustChangePassword: false,
      })
      .where(eq(users.id, existing.id));
    for (const table of [mfaTotp, mfaRecoveryCodes, mfaPasskeys]) {
      await database.db
        .delete(table)
        .where(and(eq(table.tenantId, existing.tenantId), eq(table.userId, existing.id)));
    }
    return 'updated';
  }
  await database.db.insert(users).values({
    tenantId: user.tenantId,
    id: newId(),
    username,
    fullName: user.fullName,
    role: user.role,
    passwordHash,
  });
  return 'created';
}
