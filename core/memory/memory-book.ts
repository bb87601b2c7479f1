import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { sha256Hex } from '../text/sha256.js';
import type { Logger } from '../logging/logger.js';
import { readPersonalMemory } from './personal-memory.js';
import { memorySummaryProblem } from './summary-check.js';
import { readWorkspaceMemory, type MemoryFile } from './workspace-memory.js';

/** Seed 003's instruction for summarising memory, word for word. */
export const MEMORY_SUMMARY_INSTRUCTION =
  '다음 메모리를 핵심 사실만 보존하여 50% 이하로 요약하세요. 라인 단위(`- ...`) 형식 유지.';

/** Where memory is read from: the user's memory.md, and the folder whose AGENTS.md files are the workspace's. */
export interface MemoryPlaces {
  personal: string;
  workspace: string;
  /** Where the search for AGENTS.md files stops at the latest. */
  home: string;
}

/** The memories of one request, as the system prompt takes them, and the lines to tell the user. */
export interface LoadedMemory {
  workspace: string;
  personal: string;
  notices: { level: 'dim' | 'warn'; text: string }[];
}

/** Says one line to the user (once per run for the same line). */
type Tell = (level: 'dim' | 'warn', text: string) => void;

/** A memory's summary from the summary model, or undefined when it failed. */
type Shorten = (text: string) => Promise<string | undefined>;

/** Sends the instruction and a memory to the summary model; resolves with its answer. */
export type SummariseMemory = (request: string, signal: AbortSignal) => Promise<string>;

/**
 * The memories sent with every request (seed 003): the workspace's AGENTS.md files and the user's memory.md,
 * read afresh for each turn. When together they take more than their share of the context, they are summarised
 * with the summary model, workspace memory first: its summary is kept for this run only, keyed by the files'
 * content (the files are never rewritten); then personal memory, whose original is first kept as
 * memory.md.snapshot before memory.md is replaced by a shorter summary.
 */
export class MemoryBook {
  /** Workspace summaries by the content they summarise; undefined: the summary was not shorter. */
  private readonly summaries = new Map<string, string | undefined>();
  /** Personal memories whose summary was not shorter: not asked again while memory.md says the same. */
  private readonly unshrinkable = new Set<string>();
  /** Lines already told in this run (a skipped file is said once, not every turn). */
  private readonly told = new Set<string>();

  constructor(
    private readonly places: MemoryPlaces,
    private readonly logger: Logger,
  ) {}

  /** The user put the original back (`/memory restore`): it is not summarised again in this run. */
  keepWhole(personal: string): void {
    this.unshrinkable.add(sha256Hex(personal.trim()));
  }

  /** The memories for the next request, within `maxChars` where summaries can bring them. */
  async load(maxChars: number, summarise: SummariseMemory, signal: AbortSignal): Promise<LoadedMemory> {
    const notices: LoadedMemory['notices'] = [];
    const tell: Tell = (level, text) => {
      if (this.told.has(text)) return;
      this.told.add(text);
      if (level === 'warn') this.logger.warn(text);
      else this.logger.info(text);
      notices.push({ level, text });
    };
    const { files, skipped } = await readWorkspaceMemory(this.places.workspace, this.places.home);
    for (const line of skipped) tell('warn', line);
    let workspace = renderWorkspace(files);
    let personal = (await readPersonalMemory(this.places.personal).catch(() => '')).trim();
    if (workspace.length + personal.length <= maxChars) return { workspace, personal, notices };

    const shorten = (text: string) => summaryOf(text, summarise, signal, this.logger);
    if (workspace) workspace = await this.workspaceSummary(workspace, shorten, tell);
    if (personal && workspace.length + personal.length > maxChars)
      personal = await this.personalSummary(personal, shorten, tell);
    return { workspace, personal, notices };
  }

  private async workspaceSummary(text: string, shorten: Shorten, tell: Tell): Promise<string> {
    const key = sha256Hex(text);
    if (!this.summaries.has(key)) {
      const summary = await shorten(text);
      this.summaries.set(key, summary && summary.length < text.length ? summary : undefined);
      if (this.summaries.get(key))
        tell(
          'dim',
          `Workspace memory summarised for this run (${text.length} → ${summary!.length} characters); the AGENTS.md files are unchanged.`,
        );
      else if (summary !== undefined)
        tell('warn', 'The summary of workspace memory was not shorter; it is sent whole.');
    }
    return this.summaries.get(key) ?? text;
  }

  private async personalSummary(text: string, shorten: Shorten, tell: Tell): Promise<string> {
    const key = sha256Hex(text);
    if (this.unshrinkable.has(key)) return text;
    const file = this.places.personal;
    // A refusal is remembered across runs (every start and every `hac -p` would ask again) until memory.md changes.
    const refused = refusedFile(file);
    if ((await fs.readFile(refused, 'utf8').catch(() => '')).trim() === key) {
      this.unshrinkable.add(key);
      return text;
    }
    const summary = await shorten(text);
    if (summary === undefined) return text;
    // Nothing replaces the user's memory but a real summary: a model's junk reply, refusal or error leaves it be.
    const problem = memorySummaryProblem(text, summary);
    if (problem) {
      this.unshrinkable.add(key);
      await writeFileAtomic(refused, `${key}\n`, { mode: 0o600 }).catch((e: unknown) =>
        this.logger.warn(`Could not note the refused summary in ${refused}: ${String(e)}`),
      );
      tell(
        'warn',
        `The summary of ${file} was refused: ${problem}. memory.md is unchanged, and is not summarised again until it changes.`,
      );
      return text;
    }
    const original = await readPersonalMemory(file);
    // Written while the summary was made (a /remember in another window): that is kept, not replaced.
    if (original.trim() !== text) return text;
    await keepSnapshot(file, original);
    await writeFileAtomic(file, `${summary}\n`, { mode: 0o600 });
    tell(
      'dim',
      `Personal memory summarised (${text.length} → ${summary.length} characters); the original is kept in ${file}.snapshot.`,
    );
    return summary;
  }
}

/**
 * Where the digest of a memory.md whose summary was refused is kept (memory.md.refused), so that memory is not
 * sent to the summary model again in any run while it stays the same.
 */
export function refusedFile(personal: string): string {
  return `${personal}.refused`;
}

/** When memory.md was last summarised (the time its snapshot was written), if ever. */
export async function lastSummarised(file: string): Promise<Date | undefined> {
  return (await fs.stat(`${file}.snapshot`).catch(() => undefined))?.mtime;
}

/**
 * `/memory restore`: memory.md and its snapshot change places, so the original is back and the summary is kept
 * as the snapshot (restoring again undoes it). Resolves with the lines of memory.md now, or undefined without a
 * snapshot.
 */
export async function restoreSnapshot(file: string): Promise<number | undefined> {
  const snapshot = `${file}.snapshot`;
  const original = await fs.readFile(snapshot, 'utf8').catch(() => undefined);
  if (original === undefined) return undefined;
  const summary = await fs.readFile(file, 'utf8').catch(() => '');
  await writeFileAtomic(file, original, { mode: 0o600 });
  await writeFileAtomic(snapshot, summary, { mode: 0o600 });
  return original.split(/\r?\n/).filter((line) => line.trim() !== '').length;
}

/** The AGENTS.md files as one text, each under its path. */
function renderWorkspace(files: MemoryFile[]): string {
  return files.map(({ file, text }) => `--- ${file}\n${text}`).join('\n\n');
}

/** The summary model's answer, or undefined when it failed (logged; the memory is then sent whole). */
async function summaryOf(
  text: string,
  summarise: SummariseMemory,
  signal: AbortSignal,
  logger: Logger,
): Promise<string | undefined> {
  try {
    const summary = (await summarise(`${MEMORY_SUMMARY_INSTRUCTION}\n\n${text}`, signal)).trim();
    return summary || undefined;
  } catch (error) {
    if (signal.aborted) throw error;
    logger.warn(`Summarising memory failed: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/** memory.md.snapshot holds the newest original; an older snapshot is renamed with its date first. */
async function keepSnapshot(file: string, original: string): Promise<void> {
  const snapshot = `${file}.snapshot`;
  const older = await fs.stat(snapshot).catch(() => undefined);
  if (older) {
    const stamp = older.mtime.toISOString().slice(0, 19).replace(/:/g, '-');
    await fs.rename(snapshot, path.join(path.dirname(file), `${path.basename(snapshot)}.${stamp}`));
  }
  await writeFileAtomic(snapshot, original, { mode: 0o600 });
}
