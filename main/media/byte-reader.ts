// Reading a few bytes of a file at given places: what the container check and the fingerprint
// need. A FileHandle of node:fs/promises answers it, and so does `openReader`, a plain descriptor
// driven through the callback API: per call it costs about half of a FileHandle’s (no handle
// object that Node tracks to close on collection), which a first look at a folder of 100,000
// files, five calls each, feels.
import { close, closeSync, constants, fstat, fstatSync, open, openSync, read, readSync } from 'node:fs';

export interface ByteReader {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  stat(): Promise<{ size: number }>;
}

/** Up to `length` bytes at `position`: fewer at the file's end. */
export async function readAt(fh: ByteReader, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, position);
  return buf.subarray(0, bytesRead);
}

/** What the descriptor's own stat says of the file: whether it is one, and as what size and time. */
export interface OpenedFile {
  size: number;
  mtimeMs: number;
  ino: number;
  isFile(): boolean;
}

export interface OpenReader extends ByteReader {
  /** The open file's stat (fstat): what was opened, whatever the name points at by now. */
  fileStat(): Promise<OpenedFile>;
  close(): Promise<void>;
}

/**
 * Never waits to open: a FIFO (a name that was a file a moment ago) opened for reading waits for a
 * writer, which on this thread would hang everything. A regular file opens as with 'r'.
 */
const READ_FLAGS = constants.O_NONBLOCK === undefined ? 'r' : constants.O_RDONLY | constants.O_NONBLOCK;

/** Opens `path` for reading; rejects with the system's error (its `code` kept: ENOENT, EBUSY, EACCES). */
export function openReader(path: string): Promise<OpenReader> {
  return new Promise((resolve, reject) => {
    open(path, READ_FLAGS, (err, fd) => {
      if (err) return reject(err);
      let closed: Promise<void> | undefined;
      resolve({
        read: (buffer, offset, length, position) =>
          new Promise((res, rej) => {
            read(fd, buffer, offset, length, position, (e, bytesRead) => (e ? rej(e) : res({ bytesRead })));
          }),
        stat: () =>
          new Promise((res, rej) => {
            fstat(fd, (e, st) => (e ? rej(e) : res({ size: st.size })));
          }),
        fileStat: () =>
          new Promise((res, rej) => {
            fstat(fd, (e, st) => (e ? rej(e) : res(st)));
          }),
        // Once, however often it is asked: a descriptor closed twice could close another file's.
        close: () =>
          (closed ??= new Promise((res, rej) => {
            close(fd, (e) => (e ? rej(e) : res()));
          })),
      });
    });
  });
}

/** Makes a call at once on this thread and tells `took` how long it held the thread, thrown or not. */
export function timedNow<T>(f: () => T, took: (ms: number) => void): T {
  const began = performance.now();
  try {
    return f();
  } finally {
    took(performance.now() - began);
  }
}

/**
 * The same reader with every call made at once, on this thread: for a folder on a local drive,
 * where each call takes microseconds and the thread pool's round trip costs more than the call
 * (a first look at 100,000 files makes 500,000 of them). Throws as `openReader` rejects. The
 * caller keeps its runs of these short (settle-checker.ts) and never uses it on a network drive,
 * where one call can take seconds; `took` hears how long each call held the thread.
 */
export function openReaderNow(path: string, took: (ms: number) => void = () => undefined): OpenReader {
  const now = <T>(f: () => T): Promise<T> => {
    try {
      return Promise.resolve(timedNow(f, took));
    } catch (e) {
      return Promise.reject(e as Error);
    }
  };
  const fd = timedNow(() => openSync(path, READ_FLAGS), took);
  let closed: Promise<void> | undefined;
  return {
    read: (buffer, offset, length, position) =>
      now(() => ({ bytesRead: readSync(fd, buffer, offset, length, position) })),
    stat: () => now(() => ({ size: fstatSync(fd).size })),
    fileStat: () => now(() => fstatSync(fd)),
    close: () => (closed ??= now(() => closeSync(fd))),
  };
}

/**
 * A reader whose first read at the start of the file takes up to `ahead` bytes at once and keeps
 * them, so later reads inside them cost no call: the container check reads a file's first bytes
 * and the fingerprint then reads a small file whole, which for the many small files of a large
 * folder was a second read of the same bytes.
 */
export function withReadAhead(reader: ByteReader, size: number | undefined, ahead = 64 * 1024): ByteReader {
  let kept: Buffer | undefined;
  return {
    stat: () => reader.stat(),
    read: async (buffer, offset, length, position) => {
      if (kept === undefined && position === 0 && size !== undefined && length < ahead) {
        const b = Buffer.allocUnsafe(Math.min(ahead, Math.max(size, length)));
        const { bytesRead } = await reader.read(b, 0, b.length, 0);
        kept = b.subarray(0, bytesRead);
      }
      // Served from what was kept only when it holds the whole span, or the file's end within it.
      if (kept !== undefined && (position + length <= kept.length || kept.length === size)) {
        const n = Math.max(0, Math.min(length, kept.length - position));
        if (n > 0) kept.copy(buffer, offset, position, position + n);
        return { bytesRead: n };
      }
      return reader.read(buffer, offset, length, position);
    },
  };
}
