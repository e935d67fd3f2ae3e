// The stream id of a shared job's attempt (engine/shared-folder.ts), hashed here: the engine does
// no hashing of its own.
import { createHash } from 'node:crypto';
import { SHARED_ID_NAMESPACE, sharedIdName, uuidFromDigest, type SharedIdentity } from '../../engine/shared-folder.js';

/** The same on every computer for the same file, template, parameters and attempt. */
export function sharedStreamId(s: Pick<SharedIdentity, 'key' | 'attempt'>): string {
  return uuidFromDigest(createHash('sha1').update(SHARED_ID_NAMESPACE).update(sharedIdName(s)).digest());
}
