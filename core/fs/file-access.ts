import { HacError } from '../errors/hac-error.js';

/** A file or folder of the home that hac cannot use as it is: the message names it and says what to do. */
export class FileAccessError extends HacError {
  override readonly name = 'FileAccessError';
  constructor(
    readonly file: string,
    message: string,
    cause: unknown,
  ) {
    super('file-access', message, { cause });
  }
}

/** What hac was doing with the path when the file system refused. */
export type FileAction = 'read' | 'write' | 'create' | 'use';

/**
 * A file-system failure in words a user can act on: the path, what is wrong, what to do. An error
 * with a code not listed here is returned unchanged.
 */
export function fileAccessError(error: unknown, file: string, action: FileAction): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const unchanged = action === 'write' ? ` ${file} was left unchanged.` : '';
  const cannot = `cannot ${action} ${file}:`;
  const message = ((): string | undefined => {
    switch (code) {
      case 'EACCES':
      case 'EPERM':
        return `${cannot} permission denied. Give your user access to it (chmod ${action === 'use' || action === 'create' ? 'u+rwx' : 'u+rw'} ${file}), or set HAC_HOME to a folder you own.${unchanged}`;
      case 'EROFS':
        return `${cannot} the file system is read-only. Set HAC_HOME to a writable folder.${unchanged}`;
      case 'ENOSPC':
      case 'EDQUOT':
        return `${cannot} the disk is full. Free some space and try again.${unchanged}`;
      case 'EISDIR':
        return `${file} is a folder, but hac needs a file there. Move the folder away.`;
      case 'ENOTDIR':
      case 'EEXIST':
        return `${file} (or a folder above it) is a file, but hac needs a folder there. Move the file away.`;
      case 'ELOOP':
        return `${file} is a symbolic link that points back to itself. Fix or remove the link.`;
      default:
        return undefined;
    }
  })();
  return message ? new FileAccessError(file, message, error) : error;
}
