import { describe, expect, it } from 'vitest';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import {
  assertSecureAddress,
  assertSecureDiscovery,
  InsecureAuthorizationServer,
} from '../../../../../core/mcp/oauth/secure-endpoints.js';

// Plain http is allowed for a sign-in only on this machine: a host that merely starts or ends like loopback is
// another machine, and a token or a registration sent there in the clear could be read on the way.
describe('sign-in endpoints: HTTPS, or plain http on this machine only', () => {
  it.each([
    'http://127.evil.example/authorize',
    'http://127.0.0.1.nip.io/authorize',
    'http://localhost.evil.example/authorize',
    'http://[::1].evil/authorize',
    'http://example.com/authorize',
    'http://10.0.0.1/authorize',
    'ftp://127.0.0.1/authorize',
    'javascript:alert(1)',
    'not an address',
  ])('refuses %s', (address) => {
    expect(() => assertSecureAddress('authorization endpoint', address)).toThrow(InsecureAuthorizationServer);
  });

  it.each([
    'http://localhost:8080/authorize',
    'http://a.localhost/authorize',
    'http://127.0.0.1:3000/authorize',
    'http://127.1.2.3/authorize',
    'http://[::1]:9000/authorize',
    'https://auth.example.com/authorize',
  ])('accepts %s', (address) => {
    expect(() => assertSecureAddress('authorization endpoint', address)).not.toThrow();
  });

  it.each(['token_endpoint', 'registration_endpoint', 'authorization_endpoint'])(
    'refuses discovery whose %s alone is plain http elsewhere',
    (field) => {
      const metadata: Record<string, string> = {
        issuer: 'https://auth.example.com',
        authorization_endpoint: 'https://auth.example.com/authorize',
        token_endpoint: 'https://auth.example.com/token',
        registration_endpoint: 'https://auth.example.com/register',
      };
      metadata[field] = `http://auth.example.com/${field}`;
      const discovery = { authorizationServerMetadata: metadata } as unknown as OAuthDiscoveryState;
      expect(() => assertSecureDiscovery(discovery)).toThrow(/is not HTTPS/);
    },
  );
});
