import type { TranscriptOutput } from './transcript-output.js';
import type { TranscriptView } from './transcript-view.js';

declare global {
  interface Window {
    /** Resolves when everything received so far is on screen (tests and the bench wait on it). */
    hacIdle?: () => Promise<void>;
    /** Read-only view of the transcript buffer for tests: every line's text, one line's cell widths and styles. */
    hacTranscript?: {
      lines(): string[];
      /** The transcript's width in cells. */
      columns(): number;
      /** The rows on screen now (the viewport), as text. */
      visible(): string[];
      /** The buffer line at the top of the screen. */
      top(): number;
      widths(line: number): number[];
      styles(line: number): string[];
    };
  }
}

/** What tests and the bench read of the page; read-only, removed by the disposer. */
export function installTestHooks(view: TranscriptView, output: TranscriptOutput): () => void {
  const buffer = () => view.terminal.buffer.active;
  window.hacIdle = () => output.drawn();
  window.hacTranscript = {
    lines() {
      const out: string[] = [];
      for (let y = 0; y < buffer().length; y++) {
        const line = buffer().getLine(y);
        const text = line?.translateToString(true) ?? '';
        if (line?.isWrapped && out.length) out[out.length - 1] += text;
        else out.push(text);
      }
      return out;
    },
    columns: () => view.terminal.cols,
    top: () => buffer().viewportY,
    visible() {
      const { viewportY } = buffer();
      return Array.from(
        { length: view.terminal.rows },
        (_, i) =>
          buffer()
            .getLine(viewportY + i)
            ?.translateToString(true) ?? '',
      );
    },
    widths(y) {
      const line = buffer().getLine(y);
      const widths: number[] = [];
      for (let x = 0; line && x < line.length; x++) {
        const width = line.getCell(x)?.getWidth() ?? 0;
        if (width > 0 && line.getCell(x)?.getChars()) widths.push(width);
      }
      return widths;
    },
    styles(y) {
      // One entry per character: its text and the styles it is drawn with (b bold, i italic, u underline, c colour).
      const line = buffer().getLine(y);
      const styles: string[] = [];
      for (let x = 0; line && x < line.length; x++) {
        const cell = line.getCell(x);
        if (!cell?.getChars()) continue;
        const flags = [
          cell.isBold() && 'b',
          cell.isItalic() && 'i',
          cell.isUnderline() && 'u',
          !cell.isFgDefault() && 'c',
        ];
        styles.push(`${cell.getChars()}:${flags.filter(Boolean).join('')}`);
      }
      return styles;
    },
  };
  return () => {
    delete window.hacIdle;
    delete window.hacTranscript;
  };
}
