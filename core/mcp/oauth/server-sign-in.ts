import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import {
  auth,
  ClientCredentialsProvider,
  CrossAppAccessProvider,
  PrivateKeyJwtProvider,
  requestJwtAuthorizationGrant,
} from '@modelcontextprotocol/client';
import type { SSEClientTransport } from '@modelcontextprotocol/client';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/client';
import type { Logger } from '../../logging/logger.js';
import type { SecretRegistry } from '../../logging/secrets.js';
import type { McpServerConfig } from '../mcp-config.js';
import { substituteVars } from '../mcp-env.js';
import { abortable, withTimeout } from '../timing.js';
import type { McpAuthStore } from './auth-store.js';
import { HacOAuthProvider, SignInRequired } from './oauth-provider.js';
import { workloadIdentityProvider } from './workload-identity.js';
import { describeError } from '../mcp-errors.js';
import { listenForRedirect, responseFromPaste, type AuthorizationResponse } from './redirect-listener.js';

/** An access token this close to its end is renewed before the next request. */
const REFRESH_AHEAD_MS = 60_000;

/** How long a browser sign-in may take before hac stops waiting for it. */
const SIGN_IN_WAIT_MS = 10 * 60_000;

export interface ServerSignInOptions {
  logger: Logger;
  env: NodeJS.ProcessEnv;
  secrets?: SecretRegistry;
  authStore: McpAuthStore;
}

/** A browser sign-in under way: the response comes from the redirect listener or is pasted back. */
interface PendingSignIn {
  response: Promise<AuthorizationResponse>;
  paste(text: string): void;
  /** Tells the browser's page how the sign-in ended (a pasted response has no page). */
  done(outcome: { ok: true } | { ok: false; reason: string }): void;
  end(): void;
}

/**
 * How one remote server signs in: the SDK's OAuth hooks (machine credentials as configured, else hac's
 * browser sign-in) and the browser sign-in under way, if any, with its redirect listener.
 */
export class ServerSignIn {
  private hooks: OAuthClientProvider | undefined;
  private pending: PendingSignIn | undefined;

  constructor(
    private readonly config: McpServerConfig,
    private readonly options: ServerSignInOptions,
  ) {}

  get underWay(): boolean {
    return this.pending !== undefined;
  }

  /** The SDK's OAuth hooks for this server, made on first use. */
  async provider(): Promise<OAuthClientProvider> {
    this.hooks ??= await this.makeProvider();
    return this.hooks;
  }

  /** Opens a window for a browser sign-in: a redirect listener, and a way to paste the code back. */
  async begin(open: (url: URL) => void): Promise<void> {
    const provider = await this.provider();
    if (!(provider instanceof HacOAuthProvider)) return;
    this.pending?.end();
    const listener = await listenForRedirect(
      () => provider.sentState,
      (why) =>
        this.options.logger.warn(`MCP server "${this.config.name}": a sign-in redirect refused: ${why}.`),
    );
    let pasted!: { resolve(response: AuthorizationResponse): void; reject(error: Error): void };
    const fromPaste = new Promise<AuthorizationResponse>((resolve, reject) => (pasted = { resolve, reject }));
    const response = Promise.race([listener.response, fromPaste]);
    response.catch(() => undefined);
    provider.signIn = {
      redirectUrl: listener.redirectUrl,
      open: (url) => {
        this.options.logger.info(`MCP server "${this.config.name}": sign-in started.`);
        open(url);
      },
    };
    const pending: PendingSignIn = {
      response,
      paste: (text) => pasted.resolve(responseFromPaste(text, provider.sentState)),
      done: (outcome) => listener.done(outcome),
      end: () => {
        listener.close();
        pasted.reject(new Error('the sign-in ended'));
        if (this.pending === pending) {
          this.pending = undefined;
          provider.signIn = undefined;
        }
      },
    };
    this.pending = pending;
  }

  /** The address the browser ended on (or the code), pasted back where the browser cannot reach hac. */
  paste(text: string): void {
    const { name } = this.config;
    if (!this.pending)
      throw new Error(`no sign-in to "${name}" is under way; start one with /mcp login ${name}`);
    this.pending.paste(text);
  }

  /**
   * Renews an access token that is about to run out, through the SDK's own refresh, so that no request meets
   * a 401 for it. A refresh the server refuses ends in SignInRequired (the SDK falls back to a browser
   * sign-in, which only `/mcp login` allows); anything else is left to the next request's 401.
   */
  async refreshAhead(): Promise<void> {
    const provider = this.hooks;
    if (!(provider instanceof HacOAuthProvider) || !provider.expiresWithin(REFRESH_AHEAD_MS)) return;
    try {
      await auth(provider, { serverUrl: this.config.url ?? '' });
      this.options.logger.debug(`MCP ${this.config.name}: access token renewed before it ran out.`);
    } catch (error) {
      if (error instanceof SignInRequired) throw error;
      this.options.logger.warn(
        `MCP ${this.config.name}: renewing the access token failed: ${describeError(error)}`,
      );
    }
  }

  /**
   * Waits for the browser (or a paste) to bring the response, and trades its code for tokens on `transport`.
   * The whole redirect goes to the SDK, so an authorization server's `iss` (RFC 9207) is checked, not dropped.
   */
  async finish(transport: Transport, signal: AbortSignal): Promise<void> {
    const pending = this.pending!;
    const http = transport as StreamableHTTPClientTransport | SSEClientTransport;
    try {
      const response = await abortable(
        withTimeout(pending.response, SIGN_IN_WAIT_MS, 'the sign-in was not finished within 10 minutes'),
        signal,
      );
      await (typeof response === 'string' ? http.finishAuth(response) : http.finishAuth(response));
      pending.done({ ok: true });
      this.options.logger.info(`MCP server "${this.config.name}": signed in.`);
    } catch (error) {
      pending.done({ ok: false, reason: `hac could not finish it: ${describeError(error)}.` });
      throw error;
    } finally {
      pending.end();
    }
  }

  end(): void {
    this.pending?.end();
  }

  /** Forgets the tokens and registration; resolves with whether there were any. */
  async forget(): Promise<boolean> {
    const provider = await this.provider();
    return provider instanceof HacOAuthProvider ? provider.forget() : false;
  }

  private async makeProvider(): Promise<OAuthClientProvider> {
    const { config } = this;
    const { env, secrets } = this.options;
    const where = `mcp-servers.json: server "${config.name}" oauth`;
    const value = (text: string | undefined) =>
      text === undefined ? undefined : substituteVars(text, env, where);
    const oauth = config.oauth;
    const clientSecret = value(oauth?.clientSecret);
    const privateKey = value(oauth?.privateKey);
    secrets?.add([clientSecret, privateKey]);
    const scope = oauth?.scopes?.join(' ') || undefined;
    const idp = oauth?.identityProvider;
    if (oauth?.grant === 'enterprise' && idp) {
      // The user's ID token from the company identity provider becomes a grant for this server (an ID-JAG,
      // RFC 8693), which its authorization server takes as a JWT bearer grant (RFC 7523).
      const idToken = value(idp.idToken) ?? '';
      const idpSecret = value(idp.clientSecret);
      secrets?.add([idToken, idpSecret]);
      return new CrossAppAccessProvider({
        clientId: value(oauth.clientId) ?? '',
        clientSecret: clientSecret ?? '',
        clientName: 'hac',
        assertion: async (context) => {
          const { jwtAuthGrant } = await requestJwtAuthorizationGrant({
            tokenEndpoint: value(idp.tokenEndpoint) ?? '',
            audience: context.authorizationServerUrl,
            resource: context.resourceUrl,
            idToken,
            clientId: value(idp.clientId) ?? '',
            clientSecret: idpSecret,
            scope: context.scope ?? scope,
            fetchFn: context.fetchFn,
          });
          secrets?.add([jwtAuthGrant]);
          return jwtAuthGrant;
        },
      });
    }
    if (oauth?.grant === 'workload') {
      const token = { value: value(oauth.assertion), file: value(oauth.assertionFile) };
      return workloadIdentityProvider(value(oauth.clientId) ?? '', clientSecret, token, secrets);
    }
    if (oauth?.grant === 'client_credentials') {
      const clientId = value(oauth.clientId) ?? '';
      return privateKey
        ? new PrivateKeyJwtProvider({
            clientId,
            privateKey,
            algorithm: oauth.signingAlgorithm ?? 'ES256',
            clientName: 'hac',
            scope,
          })
        : new ClientCredentialsProvider({
            clientId,
            clientSecret: clientSecret ?? '',
            clientName: 'hac',
            scope,
          });
    }
    return HacOAuthProvider.load(config.name, config.url ?? '', this.options.authStore, {
      clientId: value(oauth?.clientId),
      clientSecret,
      scopes: oauth?.scopes,
      clientMetadataUrl: oauth?.clientMetadataUrl,
    });
  }
}
