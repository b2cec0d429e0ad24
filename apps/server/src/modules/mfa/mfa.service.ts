import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';

import type { MfaMethod } from '@boomgate/contracts/auth';
import type {
  MfaStatus,
  Passkey,
  PasskeyAuthenticationBody,
  PasskeyRegistrationBody,
  RecoveryCodesResponse,
  TotpSetupResponse,
} from '@boomgate/contracts/mfa';
import type { Role } from '@boomgate/contracts/roles';

import type { AuditService } from '@/modules/audit';
import type { Actor, SessionsService } from '@/modules/sessions';
import type { TenantRow, TenantsRepository } from '@/modules/tenants';
import type { UserRow, UsersService } from '@/modules/users';
import type { Clock } from '@/platform/clock';
import type { SecretBox } from '@/platform/crypto';
import type { Database, DbExecutor } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { newId } from '@/platform/ids';

import type { MfaRepository } from './mfa.repository';
import type { MfaPasskeyRow } from './mfa.table';
import { newRecoveryCodes, recoveryCodeHasher } from './recovery-codes';
import type { RelyingParty } from './relying-party';
import { isTotpFormat, matchTotpStep, newTotpSecret, otpauthUrl } from './totp';

export type MfaServiceDeps = {
  database: Pick<Database, 'withTenant'>;
  repository: MfaRepository;
  users: Pick<UsersService, 'findById'>;
  tenants: Pick<TenantsRepository, 'find'>;
  sessions: Pick<
    SessionsService,
    'completeMfa' | 'storeChallenge' | 'takeChallenge' | 'endAllSessionsOf'
  >;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  secretBox: SecretBox;
  encryptionKey: Buffer;
};

export type MfaService = ReturnType<typeof createMfaService>;
type UserKey = { tenantId: string; userId: string };

const RP_NAME = 'Boomgate';
const keyOf = (actor: Pick<Actor, 'tenantId' | 'userId'>): UserKey => ({
  tenantId: actor.tenantId,
  userId: actor.userId,
});

/** SEC-26: who must sign in with a second factor. super_admin always; the rest by tenant policy. */
export function isMfaRequired(
  role: Role,
  policy: Pick<TenantRow, 'requireMfaForAdmins' | 'requireMfaForEveryone'>,
): boolean {
  if (role === 'super_admin' || policy.requireMfaForEveryone) return true;
  return policy.requireMfaForAdmins && role === 'tenant_admin';
}

const toPasskey = (row: MfaPasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

const WRONG_CODE = 'That code is not right. Check the time on your device and try again.';

/** TOTP and recovery codes, passkeys, and the per-tenant policy that requires them. */
export function createMfaService({
  database,
  repository,
  users,
  tenants,
  sessions,
  audit,
  clock,
  secretBox,
  encryptionKey,
}: MfaServiceDeps) {
  const hashRecoveryCode = recoveryCodeHasher(encryptionKey);

  async function methodsOf(tx: DbExecutor, user: UserKey): Promise<MfaMethod[]> {
    const totp = await repository.findTotp(tx, user);
    const passkeys = await repository.listPasskeys(tx, user);
    const methods: MfaMethod[] = [];
    if (totp?.confirmedAt) methods.push('totp');
    if (passkeys.length > 0) methods.push('passkey');
    if (methods.length > 0 && (await repository.countUnusedRecoveryCodes(tx, user)) > 0) {
      methods.push('recovery');
    }
    return methods;
  }

  /** A user who was limited to enrolment has now set a factor up: the sign-in is complete. */
  async function completeEnrolment(tx: DbExecutor, actor: Actor) {
    if (actor.mfaPending === 'enrol') await sessions.completeMfa(tx, actor);
  }

  return {
    /**
     * At sign-in, after the right password: the second-factor methods the user has (empty: none
     * set up) and whether the organization requires one.
     */
    async signInState(
      tx: DbExecutor,
      user: Pick<UserRow, 'tenantId' | 'id' | 'role'>,
      tenant: TenantRow,
    ): Promise<{ methods: MfaMethod[]; required: boolean }> {
      return {
        methods: await methodsOf(tx, { tenantId: user.tenantId, userId: user.id }),
        required: isMfaRequired(user.role, tenant),
      };
    },

    status: (actor: Actor) =>
      database.withTenant(actor.tenantId, async (tx): Promise<MfaStatus> => {
        const user = keyOf(actor);
        const totp = await repository.findTotp(tx, user);
        const policy = await tenants.find(tx, actor.tenantId);
        return {
          totp: !!totp?.confirmedAt,
          recoveryCodesLeft: totp?.confirmedAt
            ? await repository.countUnusedRecoveryCodes(tx, user)
            : 0,
          passkeys: (await repository.listPasskeys(tx, user)).map(toPasskey),
          required: !!policy && isMfaRequired(actor.role, policy),
        };
      }),

    /** A fresh secret, not yet in force: TOTP is on only once a code from it is confirmed. */
    setupTotp: (actor: Actor) =>
      database.withTenant(actor.tenantId, async (tx): Promise<TotpSetupResponse> => {
        const secret = newTotpSecret();
        const saved = await repository.saveUnconfirmedTotp(
          tx,
          keyOf(actor),
          secretBox.seal(secret, actor.tenantId),
          clock.now(),
        );
        if (!saved) {
          throw new AppError(
            'CONFLICT',
            'An authenticator app is already set up. Remove it first to set up another.',
          );
        }
        return { secret, otpauthUrl: otpauthUrl(secret, actor.username) };
      }),

    /** The first right code turns TOTP on and issues the ten recovery codes, shown this once. */
    async confirmTotp(actor: Actor, code: string, ip?: string): Promise<RecoveryCodesResponse> {
      const result = await database.withTenant(actor.tenantId, async (tx) => {
        const user = keyOf(actor);
        const totp = await repository.findTotp(tx, user);
        if (!totp) throw new AppError('CONFLICT', 'Start the authenticator setup first.');
        if (totp.confirmedAt) {
          throw new AppError('CONFLICT', 'The authenticator app is already set up.');
        }
        const now = clock.now();
        const step = matchTotpStep(secretBox.open(totp.secretSealed, actor.tenantId), code, now);
        if (step === null) return null;
        await repository.confirmTotp(tx, user, step, now);
        const recoveryCodes = newRecoveryCodes();
        await repository.replaceRecoveryCodes(tx, user, recoveryCodes.map(hashRecoveryCode), now);
        await completeEnrolment(tx, actor);
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'mfa.totp_enabled',
          targetType: 'user',
          targetId: actor.userId,
          ip,
        });
        return { recoveryCodes };
      });
      if (!result) throw new AppError('INVALID', WRONG_CODE);
      return result;
    },

    /** SEC-25: the route asks for a recent sign-in. The recovery codes go with the app. */
    removeTotp: (actor: Actor, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const user = keyOf(actor);
        const totp = await repository.findTotp(tx, user);
        if (!totp) throw new AppError('NOT_FOUND', 'No authenticator app is set up.');
        await repository.deleteTotp(tx, user);
        await repository.deleteRecoveryCodes(tx, user);
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'mfa.totp_removed',
          targetType: 'user',
          targetId: actor.userId,
          ip,
        });
      }),

    /**
     * The second sign-in step with a typed code: six digits are an authenticator code (refused
     * when its time step was already used), anything else a recovery code (each works once).
     */
    async checkCode(tx: DbExecutor, actor: Actor, code: string): Promise<MfaMethod | null> {
      const user = keyOf(actor);
      const compact = code.replace(/\s/g, '');
      if (isTotpFormat(compact)) {
        const totp = await repository.findTotp(tx, user);
        if (!totp?.confirmedAt) return null;
        const step = matchTotpStep(
          secretBox.open(totp.secretSealed, actor.tenantId),
          compact,
          clock.now(),
        );
        if (step === null) return null;
        return (await repository.useTotpStep(tx, user, step)) ? 'totp' : null;
      }
      const isUsed = await repository.useRecoveryCode(
        tx,
        user,
        hashRecoveryCode(code),
        clock.now(),
      );
      return isUsed ? 'recovery' : null;
    },

    passkeyRegistrationOptions: (actor: Actor, rp: RelyingParty) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const existing = await repository.listPasskeys(tx, keyOf(actor));
        const options = await generateRegistrationOptions({
          rpName: RP_NAME,
          rpID: rp.rpID,
          userName: actor.username,
          userDisplayName: actor.fullName ?? actor.username,
          userID: new TextEncoder().encode(actor.userId),
          attestationType: 'none',
          excludeCredentials: existing.map((row) => ({
            id: row.credentialId,
            transports: row.transports,
          })),
          authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
        });
        await sessions.storeChallenge(tx, actor, options.challenge);
        return options;
      }),

    async verifyPasskeyRegistration(
      actor: Actor,
      body: PasskeyRegistrationBody,
      rp: RelyingParty,
      ip?: string,
    ): Promise<Passkey> {
      const result = await database.withTenant(actor.tenantId, async (tx) => {
        const challenge = await sessions.takeChallenge(tx, actor);
        if (!challenge) return { error: 'Start the passkey setup again: it expired.' };
        const verification = await verifyRegistrationResponse({
          response: body.response,
          expectedChallenge: challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.rpID,
          requireUserVerification: false,
        }).catch(() => ({ verified: false }) as const);
        if (!verification.verified) {
          return { error: 'The passkey could not be verified. Try again.' };
        }
        const { credential } = verification.registrationInfo;
        const user = keyOf(actor);
        const existing = await repository.listPasskeys(tx, user);
        if (existing.some((row) => row.credentialId === credential.id)) {
          return { error: 'This passkey is already registered.' };
        }
        const now = clock.now();
        const row = await repository.insertPasskey(tx, {
          ...user,
          id: newId(),
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: credential.transports ?? [],
          name: body.name ?? `Passkey ${existing.length + 1}`,
          createdAt: now,
        });
        if (!row) throw new Error('passkey insert returned no row');
        await completeEnrolment(tx, actor);
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'mfa.passkey_added',
          targetType: 'user',
          targetId: actor.userId,
          ip,
          details: { passkeyId: row.id, name: row.name },
        });
        return { passkey: toPasskey(row), error: '' };
      });
      // Thrown after the transaction, so the used challenge stays cleared.
      if (!result.passkey) throw new AppError('INVALID', result.error);
      return result.passkey;
    },

    removePasskey: (actor: Actor, id: string, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        if (!(await repository.deletePasskey(tx, keyOf(actor), id))) {
          throw new AppError('NOT_FOUND', 'Passkey not found.');
        }
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'mfa.passkey_removed',
          targetType: 'user',
          targetId: actor.userId,
          ip,
          details: { passkeyId: id },
        });
      }),

    /** The second step with a passkey: options for navigator.credentials.get(). */
    passkeyAuthenticationOptions: (actor: Actor, rp: RelyingParty) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const passkeys = await repository.listPasskeys(tx, keyOf(actor));
        if (passkeys.length === 0) {
          throw new AppError('CONFLICT', 'This account has no passkey. Use a code instead.');
        }
        const options = await generateAuthenticationOptions({
          rpID: rp.rpID,
          allowCredentials: passkeys.map((row) => ({
            id: row.credentialId,
            transports: row.transports,
          })),
          userVerification: 'preferred',
        });
        await sessions.storeChallenge(tx, actor, options.challenge);
        return options;
      }),

    /** The second step's passkey check: the signature over this session's challenge. */
    async checkPasskey(
      tx: DbExecutor,
      actor: Actor,
      body: PasskeyAuthenticationBody,
      rp: RelyingParty,
    ): Promise<MfaMethod | null> {
      const challenge = await sessions.takeChallenge(tx, actor);
      if (!challenge) return null;
      const passkeys = await repository.listPasskeys(tx, keyOf(actor));
      const passkey = passkeys.find((row) => row.credentialId === body.response.id);
      if (!passkey) return null;
      const verification = await verifyAuthenticationResponse({
        response: body.response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        credential: {
          id: passkey.credentialId,
          publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
          counter: passkey.counter,
          transports: passkey.transports,
        },
        requireUserVerification: false,
      }).catch(() => ({ verified: false, authenticationInfo: undefined }));
      if (!verification.verified || !verification.authenticationInfo) return null;
      await repository.recordPasskeyUse(
        tx,
        actor.tenantId,
        passkey.id,
        verification.authenticationInfo.newCounter,
        clock.now(),
      );
      return 'passkey';
    },

    /**
     * An admin removes every second factor of another user (a lost phone): audited, and the
     * user's sessions end. A tenant_admin cannot reset a super_admin.
     */
    resetFor: (actor: Actor, userId: string, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        if (userId === actor.userId) {
          throw new AppError(
            'FORBIDDEN',
            'Reset your own two-step verification from your account menu instead.',
          );
        }
        const target = await users.findById(tx, actor.tenantId, userId);
        if (!target) throw new AppError('NOT_FOUND', 'User not found.');
        if (target.role === 'super_admin' && actor.role !== 'super_admin') {
          throw new AppError('FORBIDDEN', 'Only a Super Admin can change a Super Admin account.');
        }
        const user = { tenantId: actor.tenantId, userId };
        const removed = await methodsOf(tx, user);
        await repository.deleteTotp(tx, user);
        await repository.deleteRecoveryCodes(tx, user);
        await repository.deletePasskeys(tx, user);
        await sessions.endAllSessionsOf(tx, actor.tenantId, userId);
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'mfa.reset_by_admin',
          targetType: 'user',
          targetId: userId,
          ip,
          details: { removed },
        });
        return { ok: true as const };
      }),
  };
}
