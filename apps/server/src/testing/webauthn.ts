import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';

import { type CBORType, encodeCBOR } from '@levischuck/tiny-cbor';

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_CREDENTIAL = 0x40;

/**
 * A software passkey for tests: an ES256 (P-256) key pair from node:crypto, answering WebAuthn
 * ceremonies as a browser and authenticator would — `none` attestation at registration, a DER
 * ECDSA signature over authenticatorData ‖ SHA-256(clientDataJSON) at sign-in.
 */
export function createSoftwareAuthenticator({
  origin = 'http://localhost',
  rpID = 'localhost',
}: { origin?: string; rpID?: string } = {}) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const credentialId = randomBytes(32);
  const jwk = publicKey.export({ format: 'jwk' });
  // COSE_Key (RFC 9053): kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
  const coseKey = encodeCBOR(
    new Map<number, CBORType>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x ?? '', 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y ?? '', 'base64url'))],
    ]),
  );
  let counter = 0;

  const clientData = (type: string, challenge: string, at: string) =>
    JSON.stringify({ type, challenge, origin: at, crossOrigin: false });

  const authenticatorData = (flags: number, extra: Uint8Array = new Uint8Array()) => {
    const signCount = Buffer.alloc(4);
    signCount.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpID), Buffer.from([flags]), signCount, extra]);
  };

  return {
    credentialId: b64url(credentialId),

    /** navigator.credentials.create() for these options, serialised as the browser library does. */
    register(options: { challenge: string }, { at = origin }: { at?: string } = {}) {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(credentialId.length);
      const attested = Buffer.concat([Buffer.alloc(16), length, credentialId, coseKey]);
      const authData = authenticatorData(
        FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_ATTESTED_CREDENTIAL,
        attested,
      );
      const attestationObject = encodeCBOR(
        new Map<string, CBORType>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', new Uint8Array(authData)],
        ]),
      );
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge, at)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
        type: 'public-key',
      };
    },

    /** navigator.credentials.get() for these options: a signature with a higher counter. */
    authenticate(options: { challenge: string }, { at = origin }: { at?: string } = {}) {
      counter += 1;
      const authData = authenticatorData(FLAG_USER_PRESENT | FLAG_USER_VERIFIED);
      const clientDataJson = clientData('webauthn.get', options.challenge, at);
      const signature = sign(
        'sha256',
        Buffer.concat([authData, sha256(clientDataJson)]),
        privateKey,
      );
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        response: {
          clientDataJSON: b64url(clientDataJson),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
        },
        clientExtensionResults: {},
        type: 'public-key',
      };
    },
  };
}
