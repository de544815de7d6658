/**
 * A software authenticator for the panel's passkey tests: it answers the server's WebAuthn options
 * as a browser and a platform authenticator would — ES256 keys from node:crypto, attestation `none`,
 * user present and verified, a signature counter — so the ceremonies' success paths run in Node. The
 * CBOR it needs (the attestation object, the COSE public key) is written here by hand: a few types.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';

type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

/** A CBOR item's head: its major type and its argument (RFC 8949 §3). */
function head(major: number, argument: number): Buffer {
  if (argument < 24) return Buffer.from([(major << 5) | argument]);
  if (argument < 0x100) return Buffer.from([(major << 5) | 24, argument]);
  const long = Buffer.alloc(argument < 0x10000 ? 3 : 5);
  long[0] = (major << 5) | (argument < 0x10000 ? 25 : 26);
  if (argument < 0x10000) long.writeUInt16BE(argument, 1);
  else long.writeUInt32BE(argument, 1);
  return long;
}

export function encodeCbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([key, item]) => [encodeCbor(key), encodeCbor(item)])]);
}

const b64url = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

/** A passkey the authenticator holds. */
export interface HeldCredential {
  id: string;
  rpId: string;
  /** The user handle the relying party gave, base64url. */
  userHandle: string;
  privateKey: KeyObject;
  counter: number;
}

/** What a test may change in an answer, to see it refused. */
export interface Tampering {
  /** The origin the "browser" reports in clientDataJSON. */
  origin?: string;
  /** Answer with this credential, whatever the options allow. */
  credential?: HeldCredential;
}

/** The authenticator data's flags: user present, user verified, attested credential data included. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export class SoftwareAuthenticator {
  readonly credentials: HeldCredential[] = [];

  /** `origin`: the page the ceremonies run on, as a browser would report it. */
  constructor(private readonly origin: string) {}

  private authenticatorData(rpId: string, flags: number, counter: number, attested: Buffer = Buffer.alloc(0)): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, attested]);
  }

  private clientData(type: string, challenge: string, tampering: Tampering): string {
    return b64url(JSON.stringify({ type, challenge, origin: tampering.origin ?? this.origin, crossOrigin: false }));
  }

  /** navigator.credentials.create: a new ES256 passkey for the options' RP and user. */
  register(options: PublicKeyCredentialCreationOptionsJSON, tampering: Tampering = {}): RegistrationResponseJSON {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    // COSE_Key: kty EC2 (1: 2), alg ES256 (3: -7), crv P-256 (-1: 1), x (-2), y (-3).
    const cose = encodeCbor(new Map<number, Cbor>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x!, 'base64url')], [-3, Buffer.from(jwk.y!, 'base64url')]]));
    const id = randomBytes(16);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, id, cose]);
    const authData = this.authenticatorData(rpId, UP | UV | AT, 0, attested);
    const attestationObject = encodeCbor(new Map<string, Cbor>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    this.credentials.push({ id: b64url(id), rpId, userHandle: options.user.id, privateKey, counter: 0 });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      response: { clientDataJSON: this.clientData('webauthn.create', options.challenge, tampering), attestationObject: b64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get: signs the challenge with an allowed passkey (any of the RP's when none is named). */
  authenticate(options: PublicKeyCredentialRequestOptionsJSON, tampering: Tampering = {}): AuthenticationResponseJSON {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const allowed = options.allowCredentials?.map((credential) => credential.id);
    const credential = tampering.credential
      ?? this.credentials.find((held) => held.rpId === rpId && (allowed === undefined || allowed.length === 0 || allowed.includes(held.id)));
    if (credential === undefined) throw new Error(`The authenticator holds no passkey for ${rpId} among ${JSON.stringify(allowed ?? 'any')}.`);
    credential.counter += 1;
    const authData = this.authenticatorData(rpId, UP | UV, credential.counter);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, tampering);
    const signature = sign('sha256', Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, 'base64url'))]), credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: { clientDataJSON, authenticatorData: b64url(authData), signature: b64url(signature), userHandle: credential.userHandle },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
