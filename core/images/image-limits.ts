import type { MessageImage } from '../types/message.js';

/** The largest picture a provider takes without scaling it itself: hac scales down to this before sending. */
export interface ImageLimits {
  longEdge: number;
  shortEdge: number;
  maxPixels: number;
}

/**
 * As the vendors document them: Anthropic scales anything past a 1568 px long edge or ~1.15 megapixels;
 * OpenAI fits high-detail images in 2048×2048 and then the short side in 768; Ollama's vision models
 * (llava, qwen2.5-vl, gemma3) work on about a megapixel at most.
 */
export const IMAGE_LIMITS: Record<'openai' | 'anthropic' | 'ollama', ImageLimits> = {
  anthropic: { longEdge: 1568, shortEdge: 1568, maxPixels: 1_150_000 },
  openai: { longEdge: 2048, shortEdge: 768, maxPixels: 2048 * 768 },
  ollama: { longEdge: 1024, shortEdge: 1024, maxPixels: 1_048_576 },
};

/** The size an image of `width`×`height` is scaled to (never up) to fit `limits`. */
export function fitWithin(
  width: number,
  height: number,
  limits: ImageLimits,
): { width: number; height: number } {
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  const scale = Math.min(
    1,
    limits.longEdge / long,
    limits.shortEdge / short,
    Math.sqrt(limits.maxPixels / (width * height)),
  );
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}

/**
 * Tokens an image costs in a request, for the context budget: Anthropic's documented width×height/750 (OpenAI's
 * tile count comes out close for the sizes hac sends).
 */
export function imageTokens(image: Pick<MessageImage, 'width' | 'height'>): number {
  return Math.ceil((image.width * image.height) / 750);
}

/** Characters the budget counts for an image: its tokens at about four characters each. */
export function imageChars(image: Pick<MessageImage, 'width' | 'height'>): number {
  return imageTokens(image) * 4;
}

/** The transcript's line for an image: `[image: screenshot.png 1280×720, 210 KB]`. */
export function imageLine(image: Pick<MessageImage, 'name' | 'width' | 'height' | 'bytes'>): string {
  const size =
    image.bytes >= 1024 * 1024
      ? `${(image.bytes / (1024 * 1024)).toFixed(1)} MB`
      : `${Math.max(1, Math.round(image.bytes / 1024))} KB`;
  return `[image: ${image.name} ${image.width}×${image.height}, ${size}]`;
}
