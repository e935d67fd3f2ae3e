// Reading a few bytes of a file at given places: what the container check and the fingerprint
// need. A FileHandle of node:fs/promises answers it, and so does `openReader`, a plain descriptor
// driven through the callback API: per call it costs about half of a FileHandle’s (no handle
// object that Node tracks to close on collection), which a first look at a folder of 100,000
// files, five calls each, feels.
import { close, fstat, open, read } from 'node:fs';

export interface ByteReader {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  stat(): Promise<{ size: number }>;
}

export interface OpenReader extends ByteReader {
  close(): Promise<void>;
}

/** Opens `path` for reading; rejects with the system's error (its `code` kept: ENOENT, EBUSY, EACCES). */
export function openReader(path: string): Promise<OpenReader> {
  return new Promise((resolve, reject) => {
    open(path, 'r', (err, fd) => {
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
        // Once, however often it is asked: a descriptor closed twice could close another file's.
        close: () =>
          (closed ??= new Promise((res, rej) => {
            close(fd, (e) => (e ? rej(e) : res()));
          })),
      });
    });
  });
}
