import type { DiscoveredModel } from '../config/discovered-model.js';
import { environmentModels, type EnvironmentModel } from '../config/environment-models.js';
import { loadConfig, type HacConfig } from '../config/load-config.js';
import { HacError } from '../errors/hac-error.js';
import type { Logger } from '../logging/logger.js';

/**
 * config.json as a running hac holds it: read at start and again after each change hac writes; `--model` holds
 * until the user picks another model; while config.json has no model, the one the environment gives answers.
 */
export class LiveConfig {
  private config!: HacConfig;
  /** The model the environment gives, used while config.json has none (found once, in the background). */
  private environmentModel: DiscoveredModel | undefined;
  private environmentSearch: Promise<EnvironmentModel[]> | undefined;
  private readonly reloaded = new Set<(config: HacConfig) => void>();

  private constructor(
    private readonly file: string,
    private readonly env: NodeJS.ProcessEnv,
    private modelOverride: string | undefined,
  ) {}

  /** Reads config.json (throws ConfigError when it is broken, HacError for a `--model` it does not name). */
  static async read(file: string, env: NodeJS.ProcessEnv, modelOverride?: string): Promise<LiveConfig> {
    const live = new LiveConfig(file, env, modelOverride);
    live.config = await live.load();
    return live;
  }

  get current(): HacConfig {
    return this.config;
  }

  /** Told of each read after the first (the log's level and the keys to mask follow config.json). */
  onReload(listener: (config: HacConfig) => void): void {
    this.reloaded.add(listener);
  }

  async reload(): Promise<HacConfig> {
    this.config = await this.load();
    for (const listener of this.reloaded) listener(this.config);
    return this.config;
  }

  /** The user picked a model: `--model` no longer holds. */
  dropModelOverride(): void {
    this.modelOverride = undefined;
  }

  /**
   * What the environment reaches (keys, OLLAMA_HOST, a local Ollama): asked once, for the first-run offer and for
   * a model to answer with while config.json has none.
   */
  fromEnvironment(logger: Logger): Promise<EnvironmentModel[]> {
    this.environmentSearch ??= environmentModels(this.env, logger).then(
      async (found) => {
        this.environmentModel = found[0]?.model;
        if (this.environmentModel && !this.config.models.length) await this.reload().catch(() => undefined);
        return found;
      },
      () => [],
    );
    return this.environmentSearch;
  }

  /** While config.json has no model: waits until the model the environment gives (if any) is `current`'s. */
  async modelFromEnvironment(logger: Logger): Promise<void> {
    if (!this.config.models.length) await this.fromEnvironment(logger);
  }

  private async load(): Promise<HacConfig> {
    const loaded = await loadConfig(this.file, this.env, this.environmentModel);
    const wanted = this.modelOverride;
    if (wanted === undefined) return loaded;
    const chosen = loaded.models.find((m) => m.label === wanted || m.id === wanted);
    if (!chosen) {
      const names = loaded.models.map((m) => m.label).join(', ') || 'none';
      throw new HacError('usage', `No configured model is named "${wanted}". Use one of: ${names}.`);
    }
    return { ...loaded, activeModel: chosen };
  }
}
