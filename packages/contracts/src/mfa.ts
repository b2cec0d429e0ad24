import { z } from 'zod';

import { IdSchema, TimestampSchema } from './primitives';

/** A six-digit authenticator code, or a recovery code (letters and digits, dashes ignored). */
export const MfaCodeSchema = z
  .string()
  .trim()
  .min(1, 'Enter the code from your authenticator app')
  .max(32, 'That code is too long');

/** POST /api/auth/mfa/verify and POST /api/auth/mfa/totp/confirm. */
export const MfaCodeBodySchema = z.object({ code: MfaCodeSchema }).strict();
export type MfaCodeBody = z.infer<typeof MfaCodeBodySchema>;

/** POST /api/auth/mfa/totp/setup: the secret to type or scan; TOTP is on only after confirm. */
export const TotpSetupResponseSchema = z.object({
  /** Base32, as authenticator apps take it when typed. */
  secret: z.string(),
  /** otpauth://totp/…, what the QR code holds. */
  otpauthUrl: z.string(),
});
export type TotpSetupResponse = z.infer<typeof TotpSetupResponseSchema>;

/** POST /api/auth/mfa/totp/confirm: the recovery codes, shown this once only. */
export const RecoveryCodesResponseSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof RecoveryCodesResponseSchema>;

export const PasskeySchema = z.object({
  id: IdSchema,
  name: z.string(),
  createdAt: TimestampSchema,
  lastUsedAt: TimestampSchema.nullable(),
});
export type Passkey = z.infer<typeof PasskeySchema>;

/** GET /api/auth/mfa: the signed-in user's own second factors. */
export const MfaStatusSchema = z.object({
  totp: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  passkeys: z.array(PasskeySchema),
  /** The organization's policy (or the super_admin role) requires a second factor. */
  required: z.boolean(),
});
export type MfaStatus = z.infer<typeof MfaStatusSchema>;

const Base64Url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/, 'Expected base64url');

const Transport = z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

/** What navigator.credentials.create() gave, as @simplewebauthn/browser serialises it. */
export const RegistrationResponseJsonSchema = z
  .object({
    id: Base64Url,
    rawId: Base64Url,
    response: z
      .object({
        clientDataJSON: Base64Url,
        attestationObject: Base64Url,
        authenticatorData: Base64Url.optional(),
        transports: z.array(Transport).max(10).optional(),
        publicKeyAlgorithm: z.number().int().optional(),
        publicKey: Base64Url.optional(),
      })
      .strict(),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    clientExtensionResults: z.record(z.string(), z.unknown()),
    type: z.literal('public-key'),
  })
  .strict();

/** What navigator.credentials.get() gave, as @simplewebauthn/browser serialises it. */
export const AuthenticationResponseJsonSchema = z
  .object({
    id: Base64Url,
    rawId: Base64Url,
    response: z
      .object({
        clientDataJSON: Base64Url,
        authenticatorData: Base64Url,
        signature: Base64Url,
        userHandle: Base64Url.optional(),
      })
      .strict(),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    clientExtensionResults: z.record(z.string(), z.unknown()),
    type: z.literal('public-key'),
  })
  .strict();

/** POST /api/auth/mfa/passkeys/registration/verify. */
export const PasskeyRegistrationBodySchema = z
  .object({
    /** A label to tell passkeys apart, e.g. "Gate tablet". */
    name: z.string().trim().min(1, 'Name the passkey').max(60, 'At most 60 characters').optional(),
    response: RegistrationResponseJsonSchema,
  })
  .strict();
export type PasskeyRegistrationBody = z.infer<typeof PasskeyRegistrationBodySchema>;

/** POST /api/auth/mfa/passkeys/authentication/verify. */
export const PasskeyAuthenticationBodySchema = z
  .object({ response: AuthenticationResponseJsonSchema })
  .strict();
export type PasskeyAuthenticationBody = z.infer<typeof PasskeyAuthenticationBodySchema>;

const Descriptor = z.object({
  id: z.string(),
  type: z.string(),
  transports: z.array(z.string()).optional(),
});

/** PublicKeyCredentialCreationOptionsJSON (WebAuthn L3), for navigator.credentials.create(). */
export const PasskeyRegistrationOptionsSchema = z.object({
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: z.string(),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.string() })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(Descriptor).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.string().optional(),
      requireResidentKey: z.boolean().optional(),
      residentKey: z.string().optional(),
      userVerification: z.string().optional(),
    })
    .optional(),
  hints: z.array(z.string()).optional(),
  attestation: z.string().optional(),
  extensions: z.object({ credProps: z.boolean().optional() }).optional(),
});

/** PublicKeyCredentialRequestOptionsJSON (WebAuthn L3), for navigator.credentials.get(). */
export const PasskeyAuthenticationOptionsSchema = z.object({
  challenge: z.string(),
  timeout: z.number().optional(),
  rpId: z.string().optional(),
  allowCredentials: z.array(Descriptor).optional(),
  userVerification: z.string().optional(),
  hints: z.array(z.string()).optional(),
  extensions: z.object({ credProps: z.boolean().optional() }).optional(),
});

/** The passkey route parameter. */
export const PasskeyParamsSchema = z.object({ id: IdSchema }).strict();

/** POST /api/users/:id/mfa/reset (admins): every second factor of that user removed. */
export const MfaResetResponseSchema = z.object({ ok: z.literal(true) });
