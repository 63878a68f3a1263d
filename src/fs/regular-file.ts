import { statSync, type Stats } from 'node:fs';

/** What a path that is not a regular file is, for messages. */
function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'is a folder';
  if (st.isFIFO()) return 'is a FIFO (a named pipe), not a regular file';
  if (st.isCharacterDevice()) return 'is a character device, not a regular file';
  if (st.isBlockDevice()) return 'is a block device, not a regular file';
  if (st.isSocket()) return 'is a socket, not a regular file';
  return 'is not a regular file';
}

/**
 * The size of the regular file at `path` (symlinks followed). Anything else throws an Error saying
 * what it is (code ENOTREG; stat's own errors as they are): a model read from a FIFO blocked
 * forever, and one read from /dev/zero never ended (found by a hostile-input campaign).
 */
export function regularFileSize(path: string): number {
  const st = statSync(path);
  if (!st.isFile()) throw Object.assign(new Error(kindOf(st)), { code: st.isDirectory() ? 'EISDIR' : 'ENOTREG' });
  return st.size;
}
