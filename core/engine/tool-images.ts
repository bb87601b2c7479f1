import { IMAGE_LIMITS } from '../images/image-limits.js';
import { prepareImage } from '../images/prepare-image.js';
import type { ModelConfig } from '../config/load-config.js';
import type { ToolImage } from '../tools/tool.js';
import type { MessageImage } from '../types/message.js';

/**
 * The pictures a tool returned, ready for the model: scaled to its provider's limits when it takes images;
 * otherwise (or when one is not a picture hac can read) a line in the result says what was not sent.
 */
export async function toolImagesForModel(
  images: readonly ToolImage[],
  source: string,
  model: ModelConfig,
): Promise<{ images: MessageImage[]; notes: string[] }> {
  const ready: MessageImage[] = [];
  const notes: string[] = [];
  for (const image of images) {
    try {
      const prepared = await prepareImage(
        Buffer.from(image.data, 'base64'),
        source,
        IMAGE_LIMITS[model.provider],
      );
      if (model.vision === false) {
        const kind = image.mimeType.replace(/^image\//, '').toUpperCase();
        notes.push(
          `[image from ${source}: ${prepared.width}×${prepared.height} ${kind}, not sent: this model does not take images]`,
        );
      } else ready.push(prepared);
    } catch (error) {
      notes.push(`[image from ${source}: not sent: ${(error as Error).message}]`);
    }
  }
  return { images: ready, notes };
}
