// What the service holds, read straight from it (not through the engine under test).
import { createClient } from '../../main/api/client.js';
import type { StreamDto } from '../../main/service/types.js';

/** Every stream of the account, all pages. */
export async function allStreams(baseUrl: string, apiKey: string): Promise<StreamDto[]> {
  const client = createClient({ baseUrl, credentials: { kind: 'apiKey', apiKey } });
  try {
    const out: StreamDto[] = [];
    for await (const s of client.iterateStreams({ size: 100 })) out.push(s);
    return out;
  } finally {
    await client.close();
  }
}
