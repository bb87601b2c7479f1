import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../core/logging/logger.js';
import { SecretRegistry } from '../../../../core/logging/secrets.js';
import { McpAuthStore } from '../../../../core/mcp/oauth/auth-store.js';
import { HacOAuthProvider } from '../../../../core/mcp/oauth/oauth-provider.js';

const URL = 'https://mcp.example.com/mcp';

/** What discovery found: an authorization server that offers DPoP with ES256, or one that does not. */
function discovery(dpop: boolean) {
  return {
    authorizationServerUrl: 'https://auth.example.com',
    authorizationServerMetadata: {
      issuer: 'https://auth.example.com',
      authorization_endpoint: 'https://auth.example.com/authorize',
      token_endpoint: 'https://auth.example.com/token',
      response_types_supported: ['code'],
      ...(dpop && { dpop_signing_alg_values_supported: ['ES256', 'RS256'] }),
    },
  };
}

async function provider(dir: string, secrets?: SecretRegistry) {
  return HacOAuthProvider.load('work', URL, new McpAuthStore(dir, silentLogger, secrets), {});
}

describe('DPoP key of a remote server', () => {
  it('is-made-only-where-the-authorization-server-offers-dpop', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hac-dpop-'));
    await new McpAuthStore(dir, silentLogger).write({ url: URL, discovery: discovery(false) });
    expect((await provider(dir)).dpop()).toBeUndefined();
  });

  it('survives-a-restart-so-tokens-bound-to-it-stay-usable', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hac-dpop-'));
    const store = new McpAuthStore(dir, silentLogger);
    await store.write({ url: URL, discovery: discovery(true) });
    const first = await (await provider(dir)).dpop();
    expect(first?.alg).toBe('ES256');

    // A new start reads the key back: same thumbprint (the token's cnf.jkt), and it signs proofs.
    const secrets = new SecretRegistry();
    const again = await (await provider(dir, secrets)).dpop();
    expect(again?.thumbprint).toBe(first?.thumbprint);
    const proof = await again!.buildProof({ htm: 'POST', htu: URL, accessToken: 'at-123' });
    const [head = '', body = '', signature = ''] = proof.split('.');
    const header = JSON.parse(Buffer.from(head, 'base64url').toString()) as { jwk: JsonWebKey };
    expect(header).toMatchObject({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty: 'EC', crv: 'P-256' } });
    expect(header.jwk.d).toBeUndefined();
    const curve = { name: 'ECDSA', namedCurve: 'P-256' };
    const publicKey = await crypto.subtle.importKey('jwk', header.jwk, curve, false, ['verify']);
    const signed = await crypto.subtle.verify(
      { name: 'ECDSA', hash: 'SHA-256' },
      publicKey,
      Buffer.from(signature, 'base64url'),
      Buffer.from(`${head}.${body}`),
    );
    expect(signed).toBe(true);

    // The private key sits only in the 0600 sign-in file and is never written anywhere else in clear.
    const file = store.fileFor(URL);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { dpopKey: { privateJwk: { d: string } } };
    expect(secrets.redact(`key ${saved.dpopKey.privateJwk.d}`)).not.toContain(saved.dpopKey.privateJwk.d);
  });
});
