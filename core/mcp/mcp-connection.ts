import { UnauthorizedError, type Client, type Tool } from '@modelcontextprotocol/client';
import type { McpServerConfig } from './mcp-config.js';
import { describeError, isSessionGone, isUndelivered, McpPoolError, needsSignIn } from './mcp-errors.js';
import { callFailure } from './call-failure.js';
import { startFailure } from './start-failure.js';
import { listAllTools, type McpToolInfo } from './list-tools.js';
import { listFeatures, type McpFeatureLists } from './list-features.js';
import { StderrTail } from './stderr-tail.js';
import {
  closeSession,
  createClient,
  watchSession,
  createTransport,
  type McpConnectionOptions,
  type Session,
} from './mcp-session.js';
import { versionNegotiation } from './protocol-era.js';
import { nextAttempt, type ConnectAttempt } from './connect-attempts.js';
import { abortable, withChildSignal, withTimeout } from './timing.js';
import { ElicitationRoute, type Elicit } from './elicitation.js';
import type { ToolCallContext } from '../tools/tool.js';
import type { McpCallResult } from './tool-result-text.js';
import { SignInRequired } from './oauth/oauth-provider.js';
import { ServerSignIn } from './oauth/server-sign-in.js';
import { UnderWay } from './under-way.js';

/**
 * Where a server stands, as `/mcp` shows it. `disconnected`: the session ended; the next use reconnects once.
 * `needs-sign-in`: a remote server wants the user to sign in (`/mcp login`).
 */
export type McpServerState =
  'disabled' | 'connecting' | 'connected' | 'disconnected' | 'failed' | 'needs-sign-in';

/** One tool call as a connection runs it (again, after a lost session). */
interface McpCall {
  tool: string;
  args: Record<string, unknown>;
  onProgress: ToolCallContext['onProgress'];
}

/** One configured MCP server: its session (opened, reused, reopened once when lost), tools and status. */
export class McpConnection {
  state: McpServerState;
  reason: string | undefined;
  tools: McpToolInfo[] = [];
  /** Prompts and resources (with templates) the server offers, when it says it has them. */
  features: McpFeatureLists = { prompts: [], resources: [] };
  /** The protocol revision of the open (or last) session, as the server and hac agreed on it. */
  revision: string | undefined;
  readonly stderr = new StderrTail(20);
  private session: Session | undefined;
  private opening: Promise<Session | undefined> | undefined;
  private openController: AbortController | undefined;
  private generation = 0;
  private readonly closings = new UnderWay();
  /** Lists being read again after the server said they changed (see `listsSettled`). */
  private readonly refreshes = new UnderWay();
  /** How this server signs in, if it is remote: OAuth hooks and a browser sign-in under way. */
  private readonly signIns: ServerSignIn;
  /** The server's authorization metadata names another issuer on its own origin (see connectSession). */
  private lenientIssuer = false;
  /** Who answers this server's questions (elicitation): the conversations whose requests to it run. */
  private readonly questions: ElicitationRoute;

  constructor(
    readonly config: McpServerConfig,
    private readonly options: McpConnectionOptions,
  ) {
    this.state = config.enabled ? 'connecting' : 'disabled';
    this.signIns = new ServerSignIn(config, options);
    this.questions = new ElicitationRoute(config.name, options.logger, options.secrets);
  }

  get name(): string {
    return this.config.name;
  }

  /** Opens a session if none is open or opening. Never throws: a failure becomes the `failed` state. */
  open(): Promise<Session | undefined> {
    if (this.opening) return this.opening;
    if (this.session) return Promise.resolve(this.session);
    const generation = this.generation;
    const controller = new AbortController();
    this.openController = controller;
    this.setState('connecting', undefined);
    const opening = this.connectSession(generation, controller.signal).then(
      (session) => {
        // Stopped (disabled, signed out) in the moment between the last check and here: not connected after all.
        if (generation !== this.generation) {
          this.closings.add(this.shutdown(session));
          return undefined;
        }
        this.session = session;
        this.setState('connected', undefined);
        this.options.logger.info(`MCP server "${this.name}" connected with ${this.tools.length} tools.`);
        return session;
      },
      (error: unknown) => {
        if (generation !== this.generation) return undefined;
        if (needsSignIn(error)) {
          this.setState('needs-sign-in', 'sign in with /mcp login');
          this.options.logger.info(`MCP server "${this.name}" needs sign-in.`);
          return undefined;
        }
        const reason = startFailure(this.config, error, this.stderr.lines());
        this.setState('failed', reason);
        this.options.logger.error(`MCP server "${this.name}" failed to start: ${reason}`);
        return undefined;
      },
    );
    this.opening = opening;
    void opening.finally(() => {
      if (this.opening === opening) this.opening = undefined;
    });
    return opening;
  }

  /**
   * Calls a tool on this server's session, reconnecting once when the session was lost. `context.elicit` asks the
   * user what the server asks while the call runs; `context.onProgress` hears the progress it reports.
   */
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal, context?: ToolCallContext) {
    const call = { tool, args, onProgress: context?.onProgress };
    return this.questions.during(context?.elicit, signal, () => this.callTool(call, signal));
  }

  private async callTool(call: McpCall, signal: AbortSignal): Promise<McpCallResult> {
    const { tool } = call;
    let session = await this.usableSession(signal);
    try {
      await this.signIns.refreshAhead();
      await this.allowAutoSignIn();
      // More access asked for mid-call (403 insufficient_scope) is a sign-in too.
      return await this.signedIn(session, signal, () => this.callOn(session, call, signal));
    } catch (error) {
      if (needsSignIn(error)) {
        this.setState('needs-sign-in', 'sign in with /mcp login');
        throw new McpPoolError('mcp-not-connected', this.name, new SignInRequired(this.name).message);
      }
      if (signal.aborted || !isSessionGone(error))
        throw callFailure(this.config, tool, error, signal, this.stderr.lines());
      this.lost(session, describeError(error));
      if (!isUndelivered(error)) throw callFailure(this.config, tool, error, signal, this.stderr.lines());
      session = await this.usableSession(signal);
      try {
        return await this.callOn(session, call, signal);
      } catch (retryError) {
        if (!signal.aborted && isSessionGone(retryError)) this.lost(session, describeError(retryError));
        throw callFailure(this.config, tool, retryError, signal, this.stderr.lines());
      }
    }
  }

  /**
   * Runs a request other than a tool call (a prompt, a resource, a completion) on this server's session, opening
   * it if needed; `elicit` asks the user what the server asks meanwhile.
   */
  async request<T>(signal: AbortSignal, run: (client: Client) => Promise<T>, elicit?: Elicit): Promise<T> {
    const session = await this.usableSession(signal);
    return this.questions.during(elicit, signal, () =>
      this.signedIn(session, signal, () => run(session.client)),
    );
  }

  /** Ends the session (if any) and waits for a stdio child to exit; `disabled` stays until `open()`. */
  async stop(
    nextState: 'disabled' | 'disconnected' | 'needs-sign-in' | 'connecting' = 'disabled',
  ): Promise<void> {
    this.generation += 1;
    const session = this.session;
    const pending = this.opening;
    this.session = undefined;
    this.opening = undefined;
    this.openController?.abort();
    this.setState(nextState, undefined);
    if (session) this.closings.add(this.shutdown(session));
    if (pending) await pending;
    await this.closings.settled();
  }

  private async usableSession(signal: AbortSignal): Promise<Session> {
    if (this.state === 'disabled') {
      throw new McpPoolError('mcp-disabled', this.name, `MCP server "${this.name}" is disabled.`);
    }
    if (this.session) return this.session;
    if (this.state === 'needs-sign-in')
      throw new McpPoolError('mcp-not-connected', this.name, new SignInRequired(this.name).message);
    if (this.opening || this.state === 'disconnected') {
      if (!this.opening)
        this.options.logger.warn(
          `MCP server "${this.name}": reconnecting (${this.reason ?? 'session closed'}).`,
        );
      const session = await abortable(this.open(), signal);
      if (session) return session;
    }
    throw new McpPoolError(
      'mcp-not-connected',
      this.name,
      `MCP server "${this.name}" is not connected: ${sentence(this.reason ?? 'not started')}`,
    );
  }

  private async callOn(session: Session, { tool, args, onProgress }: McpCall, signal: AbortSignal) {
    this.options.logger.debug(`MCP ${this.name}/${tool} call: ${JSON.stringify(args)}`);
    // The SDK never removes its abort listener from the signal it gets; a per-call child signal keeps a
    // turn's signal from collecting one listener per call (Node warns on stderr after 10).
    return withChildSignal(signal, async (callSignal) => {
      const result = await session.client.callTool(
        { name: tool, arguments: args },
        {
          // The tool as listed, so the SDK repeats its `x-mcp-header` parameters as HTTP headers.
          toolDefinition: this.tools.find((listed) => listed.name === tool) as Tool | undefined,
          signal: callSignal,
          timeout: this.config.timeoutMs,
          resetTimeoutOnProgress: true,
          // A progress handler makes the SDK send a progress token, so the server can keep the call alive.
          onprogress: (progress) => {
            this.options.logger.debug(`MCP ${this.name}/${tool} progress: ${JSON.stringify(progress)}`);
            onProgress?.(progress);
          },
        },
      );
      this.options.logger.debug(`MCP ${this.name}/${tool} result: ${JSON.stringify(result)}`);
      return result;
    });
  }

  /** One try at connecting, and the tries a refusal calls for (see `nextAttempt`). */
  private async connectSession(
    generation: number,
    signal: AbortSignal,
    attempt: ConnectAttempt = { signIns: 0, lenientIssuer: this.lenientIssuer },
  ): Promise<Session> {
    const { logger, connectTimeoutMs, clientInfo } = this.options;
    await this.allowAutoSignIn();
    const transport = await createTransport(this.config, {
      ...this.options,
      stderr: this.stderr,
      oauth: () => this.signIns.provider(),
      lenientIssuer: attempt.lenientIssuer,
    });
    const negotiation = versionNegotiation(this.config.transport, attempt.pinned);
    const client = createClient(
      clientInfo,
      negotiation,
      {
        listChanged: (lists) => this.refreshes.add(this.refreshLists(session, lists)),
        elicit: (params, id, abort) => this.questions.answer(params, id, abort),
      },
      this.options.views,
    );
    const session: Session = watchSession(client, transport, this.config, logger, (reason) =>
      this.lost(session, reason),
    );
    const seconds = connectTimeoutMs / 1000;
    try {
      logger.debug(`MCP ${this.name}: connecting over ${this.config.transport}.`);
      try {
        await abortable(
          withTimeout(client.connect(transport), connectTimeoutMs, `no answer within ${seconds} s`),
          signal,
        );
      } catch (error) {
        const server = { config: this.config, logger, signIns: this.signIns, transport };
        const next = await nextAttempt(error, attempt, server, signal);
        this.lenientIssuer = next.lenientIssuer;
        this.closings.add(this.shutdown(session));
        return await this.connectSession(generation, signal, next);
      }
      this.questions.watch(transport);
      const tools = await this.signedIn(session, signal, () =>
        abortable(listAllTools(client, { ...this.config, ...this.options }), signal),
      );
      // Prompts and resources are extras: a server that fails to list them still serves its tools.
      const features = await withTimeout(listFeatures(client), connectTimeoutMs, 'no answer').catch(
        (error: unknown) => {
          logger.warn(
            `MCP server "${this.name}": listing prompts and resources failed: ${describeError(error)}`,
          );
          return this.features;
        },
      );
      if (generation !== this.generation) throw new Error('stopped while connecting');
      this.tools = tools;
      this.features = features;
      this.revision = client.getNegotiatedProtocolVersion();
      logger.info(`MCP ${this.name}: protocol revision ${this.revision ?? 'unknown'}.`);
      logger.debug(`MCP ${this.name} tools: ${tools.map((t) => t.name).join(', ') || '(none)'}`);
      return session;
    } catch (error) {
      this.closings.add(this.shutdown(session));
      throw error;
    }
  }

  /**
   * `/mcp login`: signs in to this remote server in the browser. Resolves with the link to open once the
   * server has given it (undefined when no browser is needed: the server connected at once), and `done`,
   * which settles when the server is connected or the sign-in has ended.
   */
  async signIn(): Promise<{ url: URL | undefined; done: Promise<void> }> {
    if (this.config.transport === 'stdio')
      throw new McpPoolError(
        'mcp-call-failed',
        this.name,
        `"${this.name}" is a local server: it needs no sign-in.`,
      );
    // Not "needs sign-in": a server signed in already connects again at once with the tokens it holds.
    await this.stop('connecting');
    let shown!: (url: URL | undefined) => void;
    const link = new Promise<URL | undefined>((resolve) => (shown = resolve));
    await this.signIns.begin(shown);
    const done = this.open().then((session) => {
      this.signIns.end();
      shown(undefined);
      if (!session && this.state !== 'connected')
        throw new Error(this.reason ?? 'the sign-in did not finish');
    });
    done.catch(() => undefined);
    return { url: await link, done };
  }

  /** The address the browser ended on (or the code), pasted back where the browser cannot reach hac. */
  pasteSignIn(text: string): void {
    this.signIns.paste(text);
  }

  /** `/mcp logout`: forgets this server's tokens and registration; the server then needs sign-in again. */
  async signOut(): Promise<boolean> {
    await this.stop('needs-sign-in');
    const forgot = await this.signIns.forget();
    void this.open();
    return forgot;
  }

  /** Test clients that play the browser sign in whenever asked (see `autoSignIn`). */
  private async allowAutoSignIn(): Promise<void> {
    const auto = this.options.autoSignIn;
    if (!auto || this.signIns.underWay || this.config.transport === 'stdio') return;
    await this.signIns.begin((url) => auto(this.name, url));
  }

  /** Runs `step`; when the server wants a sign-in that is under way, waits for it and runs `step` again. */
  private async signedIn<T>(session: Session, signal: AbortSignal, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      if (!(error instanceof UnauthorizedError) || !this.signIns.underWay) throw error;
      await this.signIns.finish(session.transport, signal);
      return step();
    }
  }

  /**
   * Settles when the lists being read again have been read. A server announces a change before the result of
   * the call that made it, so whatever follows that call (`/mcp`, the next turn's tools) sees the new lists.
   */
  listsSettled(): Promise<unknown> {
    return this.refreshes.settled();
  }

  /** A server said its tools, or its prompts and resources, changed: they are listed again. Never rejects. */
  private async refreshLists(session: Session, lists: 'tools' | 'features'): Promise<void> {
    const { logger, onChange } = this.options;
    try {
      if (lists === 'tools') {
        const tools = await listAllTools(session.client, { ...this.config, ...this.options });
        if (session !== this.session) return;
        this.tools = tools;
        logger.debug(`MCP ${this.name} tools changed: ${tools.map((t) => t.name).join(', ') || '(none)'}`);
      } else {
        const features = await listFeatures(session.client);
        if (session !== this.session) return;
        this.features = features;
        const { prompts, resources } = features;
        logger.debug(`MCP ${this.name}: ${prompts.length} prompts, ${resources.length} resources now`);
      }
      onChange();
    } catch (error) {
      const what = lists === 'tools' ? 'tools' : 'its lists';
      logger.warn(`MCP server "${this.name}": refreshing ${what} failed: ${describeError(error)}`);
    }
  }

  /** The session ended by itself: forget it, close what is left, and reconnect on the next use. */
  private lost(session: Session, reason: string): void {
    if (session !== this.session) return;
    this.session = undefined;
    this.setState('disconnected', reason);
    this.options.logger.warn(`MCP server "${this.name}": ${reason}; it reconnects on next use.`);
    this.closings.add(this.shutdown(session));
  }

  private shutdown(session: Session): Promise<void> {
    return closeSession(session, this.name, this.options);
  }

  private setState(state: McpServerState, reason: string | undefined): void {
    this.state = state;
    this.reason = reason;
    this.options.onChange();
  }
}

/** A reason as the end of a sentence: its own question mark or full stop kept, else one added. */
function sentence(reason: string): string {
  return /[.?!]$/.test(reason) ? reason : `${reason}.`;
}
