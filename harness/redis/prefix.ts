// On a user's own server (REDIS_URL) the judge owns nothing but a key prefix: it writes only there and
// deletes only that afterwards. It never flushes a database that holds someone else's data.
import { randomBytes } from 'node:crypto';

/** What the cleanup needs of a client; any node-redis client fits. */
export interface CommandSender {
  sendCommand(args: string[]): Promise<unknown>;
}

/** A fresh id for one command's share of a user's server: in its key prefix and its ACL user. */
export function newJudgeId(): string {
  return randomBytes(6).toString('hex');
}

/** The key prefix of the command with this id: `window-katas:<id>:`. */
export function keyPrefixOf(id: string): string {
  return `window-katas:${id}:`;
}

/** SCAN's MATCH is a glob: a prefix must match itself literally. */
function globLiteral(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

/** Deletes every key starting with `prefix` (SCAN + UNLINK) and returns how many there were. */
export async function deleteKeysWithPrefix(client: CommandSender, prefix: string): Promise<number> {
  // An empty prefix would match the whole database, which is exactly what must never be deleted.
  if (!prefix) throw new Error('deleteKeysWithPrefix needs a non-empty prefix');
  const pattern = `${globLiteral(prefix)}*`;
  let cursor = '0';
  let deleted = 0;
  do {
    const reply = (await client.sendCommand([
      'SCAN',
      cursor,
      'MATCH',
      pattern,
      'COUNT',
      '1000',
    ])) as [string, string[]];
    cursor = String(reply[0]);
    // SCAN may return a key twice; UNLINK counts each key once, so the total stays exact.
    const keys = reply[1].map(String).filter((key) => key.startsWith(prefix));
    if (keys.length > 0) deleted += Number(await client.sendCommand(['UNLINK', ...keys]));
  } while (cursor !== '0');
  return deleted;
}
