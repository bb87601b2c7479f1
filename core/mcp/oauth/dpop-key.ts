import { DpopSession, generateDpopKeyPair, type DpopKeyPair } from '@modelcontextprotocol/client';

/**
 * A DPoP key (RFC 9449) as kept in the server's sign-in file. Tokens bound to it are useless without it, so it
 * lives beside them (0600) and survives a restart; it never leaves this machine otherwise.
 */
export interface StoredDpopKey {
  alg: 'ES256';
  privateJwk: JsonWebKey;
  publicJwk: JsonWebKey;
  thumbprint: string;
}

const CURVE = { name: 'ECDSA', namedCurve: 'P-256' };

/** A new signing key, and the SDK's session that signs each request's proof with it. */
export async function newDpopKey(): Promise<{ key: StoredDpopKey; session: DpopSession }> {
  const pair = await generateDpopKeyPair({ alg: 'ES256', extractable: true });
  const privateJwk = await crypto.subtle.exportKey('jwk', pair.privateKey);
  const key: StoredDpopKey = {
    alg: 'ES256',
    privateJwk,
    publicJwk: pair.publicJwk,
    thumbprint: pair.thumbprint,
  };
  return { key, session: await DpopSession.create({ keyPair: pair }) };
}

/** The session for a key read back from the sign-in file. */
export async function dpopSessionFor(key: StoredDpopKey): Promise<DpopSession> {
  const keyPair: DpopKeyPair = {
    privateKey: await crypto.subtle.importKey('jwk', key.privateJwk, CURVE, false, ['sign']),
    publicKey: await crypto.subtle.importKey('jwk', key.publicJwk, CURVE, true, ['verify']),
    publicJwk: key.publicJwk,
    thumbprint: key.thumbprint,
    alg: key.alg,
  };
  return DpopSession.create({ keyPair });
}
