import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  completeImageMention,
  droppedImagePath,
  imageMentions,
  imageSourceOf,
} from '../../../../core/host/attachments.js';
import { useTempDir } from '../../../helpers/temp-home.js';

const tempDir = useTempDir();

describe('pictures named in what is typed', () => {
  it('at-mentions-of-image-files-are-taken-out-and-read-as-their-names', () => {
    expect(imageMentions('what is in @shots/a.png? and @"my shot.jpg".')).toEqual({
      text: 'what is in a.png? and my shot.jpg.',
      files: ['shots/a.png', 'my shot.jpg'],
    });
    // Not an image name, or not at a word's start: left as typed.
    expect(imageMentions('ask @someone, mail me@x.png or see @notes.txt')).toEqual({
      text: 'ask @someone, mail me@x.png or see @notes.txt',
      files: [],
    });
  });

  it('a-dropped-file-path-is-recognised-quoted-escaped-or-as-a-file-url-when-it-exists', () => {
    const dir = tempDir();
    const file = path.join(dir, 'my shot.png');
    writeFileSync(file, 'png');
    expect(droppedImagePath(`'${file}'`, '/')).toBe(file);
    expect(droppedImagePath(file.replace(/ /g, '\\ '), '/')).toBe(file);
    expect(droppedImagePath(pathToFileURL(file).href, '/')).toBe(file);
    expect(droppedImagePath(path.join(dir, 'gone.png'), '/')).toBeUndefined();
    expect(droppedImagePath(`look at ${file}`, '/')).toBeUndefined();
  });

  it('image-takes-an-https-address-or-a-path', () => {
    expect(imageSourceOf('https://example.com/a.png')).toEqual({ url: 'https://example.com/a.png' });
    expect(imageSourceOf('"a b.png"')).toEqual({ file: 'a b.png' });
  });

  it('tab-after-at-completes-folders-pictures-and-text-files', () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'shots'));
    writeFileSync(path.join(dir, 'shot one.png'), '');
    writeFileSync(path.join(dir, 'shot.txt'), '');
    writeFileSync(path.join(dir, 'shots', 'b.jpg'), '');
    expect(completeImageMention('see @sh', dir)).toEqual([
      'see @"shot one.png"',
      'see @shot.txt',
      'see @shots/',
    ]);
    expect(completeImageMention('see @shots/', dir)).toEqual(['see @shots/b.jpg']);
    expect(completeImageMention('no mention', dir)).toEqual([]);
  });
});
