/**
 * The address book and ban list persisted as `peers.json` in the datadir (written to a temporary file and renamed,
 * so a crash leaves the old or the new file, never half of one). A file that does not parse is set aside as
 * `peers.json.bad` and the node starts with an empty book.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PeerStore, PersistedPeers } from '../../src/p2p/address-book.ts';

const peerFile = 'peers.json';

export function createFilePeerStore(datadir: string): PeerStore {
  const path = join(datadir, peerFile);
  return {
    load() {
      if (!existsSync(path)) return undefined;
      try {
        const data = JSON.parse(readFileSync(path, 'utf8')) as PersistedPeers;
        if (data.version !== 1 || !Array.isArray(data.addresses) || !Array.isArray(data.bans)) throw new Error('unexpected shape');
        return data;
      } catch {
        renameSync(path, `${path}.bad`);
        return undefined;
      }
    },
    save(data) {
      const tmp = `${path}.tmp`;
      writeFileSync(tmp, `${JSON.stringify(data)}\n`);
      renameSync(tmp, path);
    },
  };
}
