// One upload through Sluice's client, in its own process so its peak RSS is Sluice's alone
// (the sandbox runs in another process). Prints {"ms":…,"bytes":…,"maxRssBytes":…}.
import { randomUUID } from 'node:crypto';
import { createClient } from '../../dist/main/api/client.js';
import { TEMPLATE_IDS } from '../../dist/main/service/templates.js';

const [url, key, file] = process.argv.slice(2);
const client = createClient({ baseUrl: url, credentials: { kind: 'apiKey', apiKey: key } });
const started = performance.now();
let bytes = 0;
await client.upload({
  filePath: file,
  templateId: TEMPLATE_IDS.transcription,
  streamId: randomUUID(),
  persist: true,
  onProgress: (sent) => (bytes = sent),
});
const ms = performance.now() - started;
await client.close();
// resourceUsage().maxRSS is in kilobytes.
console.log(JSON.stringify({ ms, bytes, maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
