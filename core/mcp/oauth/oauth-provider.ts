import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/client';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/client';
import type { DpopSession } from '@modelcontextprotocol/client';
import type { McpAuthStore, StoredAuth } from './auth-store.js';
import { dpopSessionFor, newDpopKey } from './dpop-key.js';
import { assertSecureAddress, assertSecureDiscovery } from './secure-endpoints.js';

/** Client settings of mcp-servers.json's `oauth`, `${VAR}` values filled in. */
export interface OAuthClientSettings {
  clientId?: string;
  clientSecret?: string;
  scopes?: string[];
  clientMetadataUrl?: string;
}

/** Where an authorization server says which DPoP proofs it takes (RFC 9449 §5.1). */
interface DpopMetadata {
  dpop_signing_alg_values_supported?: string[];
}

/** A browser sign-in under way: where the browser comes back to, and who shows the user the link. */
export interface SignInWindow {
  redirectUrl: string;
  open(authorizationUrl: URL): void;
}

/** The server wants a browser sign-in and none is under way: the user runs `/mcp login`. */
export class SignInRequired extends Error {
  constructor(readonly server: string) {
    super(`MCP server "${server}" needs sign-in: /mcp login ${server}`);
    this.name = 'SignInRequired';
  }
}

/**
 * The MCP SDK's OAuth client hooks for one remote server (the SDK does discovery, registration, PKCE, the
 * resource indicator, scopes, refresh and step-up): what it learns is kept in the auth store. A browser
 * sign-in happens only while one is under way (`/mcp login`): otherwise a server that wants one stops the
 * connection with SignInRequired, before any registration is made.
 */
export class HacOAuthProvider implements OAuthClientProvider {
  private stored: StoredAuth;
  private verifier: string | undefined;
  private expectedState: string | undefined;
  private dpopSession: Promise<DpopSession> | undefined;
  /** Set while a browser sign-in is allowed. */
  signIn: SignInWindow | undefined;

  private constructor(
    private readonly server: string,
    private readonly store: McpAuthStore,
    private readonly settings: OAuthClientSettings,
    stored: StoredAuth,
  ) {
    this.stored = stored;
  }

  static async load(
    server: string,
    url: string,
    store: McpAuthStore,
    settings: OAuthClientSettings,
  ): Promise<HacOAuthProvider> {
    return new HacOAuthProvider(server, store, settings, await store.read(url));
  }

  get hasTokens(): boolean {
    return this.stored.tokens !== undefined;
  }

  /** The `state` the authorization server must send back, for the redirect listener to check. */
  get sentState(): string | undefined {
    return this.expectedState;
  }

  get redirectUrl(): string {
    return this.signIn?.redirectUrl ?? this.stored.clientRedirectUrl ?? 'http://127.0.0.1/callback';
  }

  get clientMetadataUrl(): string | undefined {
    return this.settings.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'hac (humble-ai-cli)',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.settings.clientSecret ? 'client_secret_basic' : 'none',
      ...(this.settings.scopes?.length ? { scope: this.settings.scopes.join(' ') } : {}),
    };
  }

  clientInformation(context?: { issuer: string }): OAuthClientInformationMixed | undefined {
    // A client registered by hand holds for whichever authorization server the server names.
    if (this.settings.clientId)
      return { client_id: this.settings.clientId, client_secret: this.settings.clientSecret, ...context };
    // One registration per server: the sign-in listener's port changes each time, and an authorization server
    // must take any port on a loopback redirect (RFC 8252 §7.3), so only another address registers again.
    const { client, clientRedirectUrl } = this.stored;
    if (!client) return this.signIn || this.hasTokens ? undefined : this.required();
    if (this.signIn && !sameLoopbackRedirect(clientRedirectUrl, this.signIn.redirectUrl)) return undefined;
    return client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    if (this.settings.clientId) return;
    await this.save({ client, clientRedirectUrl: this.redirectUrl });
  }

  tokens(): OAuthTokens | undefined {
    return this.stored.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const expiresIn = tokens.expires_in;
    await this.save({
      tokens,
      tokensExpireAt: typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : undefined,
    });
  }

  /**
   * DPoP (RFC 9449): where the authorization server offers it, tokens are bound to a key of hac's own, so a
   * token copied off this machine is useless; the same key signs every request's proof.
   */
  dpop(): Promise<DpopSession> | undefined {
    const metadata = this.stored.discovery?.authorizationServerMetadata as DpopMetadata | undefined;
    if (!this.stored.dpopKey && !metadata?.dpop_signing_alg_values_supported?.includes('ES256'))
      return undefined;
    this.dpopSession ??= this.stored.dpopKey
      ? dpopSessionFor(this.stored.dpopKey)
      : newDpopKey().then(async ({ key, session }) => {
          await this.save({ dpopKey: key });
          return session;
        });
    return this.dpopSession;
  }

  /**
   * The server refused a token it was sent: what discovery found may be out of date (the server may have moved
   * to another authorization server), so the next sign-in or refresh discovers again.
   */
  async tokenRefused(): Promise<void> {
    if (this.stored.discovery) await this.save({ discovery: undefined });
  }

  /** Which of the authorization server's endpoints `url` is, among those that answer JSON to hac's POST. */
  endpointAt(url: string): { name: string; expected: string } | undefined {
    const metadata = this.stored.discovery?.authorizationServerMetadata;
    if (url === metadata?.token_endpoint) return { name: 'token endpoint', expected: 'a token' };
    if (url === metadata?.registration_endpoint)
      return { name: 'registration endpoint', expected: 'a client registration' };
    return undefined;
  }

  /** True when the access token runs out within `ms` and a refresh token can renew it. */
  expiresWithin(ms: number): boolean {
    const { tokens, tokensExpireAt } = this.stored;
    return !!tokens?.refresh_token && tokensExpireAt !== undefined && tokensExpireAt - Date.now() < ms;
  }

  state(): string {
    if (!this.signIn) this.required();
    // node:crypto loaded here, at a sign-in: imported at the top it costs every start of the MCP pool ~5.5 ms.
    this.expectedState = process.getBuiltinModule('node:crypto').randomBytes(16).toString('base64url');
    return this.expectedState;
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    if (!this.signIn) this.required();
    assertSecureAddress('authorization endpoint', authorizationUrl.href);
    this.signIn.open(authorizationUrl);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('No sign-in is under way for this server.');
    return this.verifier;
  }

  // What discovery found is checked before the SDK registers a client or opens the authorization page: an
  // authorization server that is not HTTPS (or loopback http) gets neither a registration nor the user's browser.
  discoveryState(): OAuthDiscoveryState | undefined {
    assertSecureDiscovery(this.stored.discovery);
    return this.stored.discovery;
  }

  async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    assertSecureDiscovery(discovery);
    await this.save({ discovery });
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') return void (this.verifier = undefined);
    const next = { ...this.stored };
    if (scope === 'all' || scope === 'tokens') {
      delete next.tokens;
      delete next.tokensExpireAt;
    }
    if (scope === 'all' || scope === 'client') delete next.client;
    if (scope === 'all' || scope === 'discovery') delete next.discovery;
    this.stored = next;
    await this.store.write(next);
  }

  /** Forgets this server's sign-in: tokens, registration and discovery. */
  async forget(): Promise<boolean> {
    this.stored = { url: this.stored.url };
    this.dpopSession = undefined;
    return this.store.remove(this.stored.url);
  }

  private async save(change: Partial<StoredAuth>): Promise<void> {
    this.stored = { ...this.stored, ...change };
    await this.store.write(this.stored);
  }

  private required(): never {
    throw new SignInRequired(this.server);
  }
}

/** Whether two redirect addresses are the same but for a loopback port (RFC 8252 §7.3). */
function sameLoopbackRedirect(registered: string | undefined, current: string): boolean {
  if (!registered) return false;
  const [a, b] = [new URL(registered), new URL(current)];
  const loopback = (url: URL) => ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
  return a.protocol === b.protocol && a.hostname === b.hostname && a.pathname === b.pathname && loopback(a);
}
