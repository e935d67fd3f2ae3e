// Uploads against deliberately broken loopback servers: the wire format, no replay, idle timeout,
// resets, and input that fails before anything is sent.
import { execFileSync } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { writeFile, mkdtemp, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEMPLATE_IDS } from '../../main/service/templates.js';
import { failure, setup, useCleanup } from './bad-env.js';
import { fakeStream, json, STREAM_ID } from './bad-server.js';

useCleanup();

describe('uploads', () => {
  async function file(bytes: number): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-api-'));
    const p = join(dir, 'clip.wav');
    await writeFile(p, Buffer.alloc(bytes, 7));
    return p;
  }
  const up = { templateId: TEMPLATE_IDS.transcription, streamId: STREAM_ID };

  it('never replayed, even on 503', async () => {
    const { sb, client } = await setup((_q, res) =>
      json(
        res,
        503,
        {
          statusCode: 503,
          title: 'x',
          message: 'no capacity',
          internalErrorName: 'PROCESSOR_FAILED_RESERVATION_ERROR',
          nestedErrors: [],
        },
        { 'retry-after': '1' },
      ),
    );
    const e = await failure(client.upload({ ...up, filePath: await file(1000) }));
    expect(e).toMatchObject({ statusCode: 503, retryAfterMs: 1000, errorClass: 'transient' });
    expect(sb.hits).toHaveLength(1);
    expect(sb.hits[0]?.bodyBytes).toBe(1000);
    expect(sb.hits[0]?.headers['content-type']).toBe('application/octet-stream');
  });

  it('wire format: octet-stream with length; multipart with configuration then file', async () => {
    const { sb, client } = await setup((_q, res) => json(res, 200, fakeStream()));
    const filePath = await file(1234);
    await client.upload({ ...up, filePath, params: { language: ['en'] } });
    await client.upload({
      ...up,
      filePath,
      params: { ask0: '- who?' },
      webhooks: { 'https://h.example/x': ['stream.completed'] },
    });
    const [plain, multi] = sb.hits;
    expect(plain?.headers).toMatchObject({
      'content-type': 'application/octet-stream',
      'content-length': '1234',
      accept: 'application/json',
    });
    expect(plain?.url).toBe(
      `/http-gateway/api/v1/upload?streamConfigurationTemplateId=${up.templateId}&id=${STREAM_ID}&name=clip.wav&persist=true&language=en`,
    );
    const boundary = /boundary=(.+)$/.exec(String(multi?.headers['content-type']))?.[1];
    expect(Number(multi?.headers['content-length'])).toBe(multi?.bodyBytes);
    const parts = (multi?.body ?? '').split(`--${boundary}`);
    expect(parts).toHaveLength(4);
    expect(parts[1]).toContain('name="configuration"');
    expect(JSON.parse(parts[1]?.split('\r\n\r\n')[1] ?? '')).toEqual({
      patches: { ask0: '\\- who?' },
      webhook: { 'https://h.example/x': ['stream.completed'] },
    });
    expect(parts[2]).toContain('name="file"; filename="clip.wav"');
    expect(parts[3]).toBe('--\r\n');
    expect(multi?.url).not.toContain('ask0');
  });

  it('idle timeout when the service goes silent', async () => {
    const { client } = await setup(() => undefined);
    const e = await failure(client.upload({ ...up, filePath: await file(10_000), idleTimeoutMs: 200 }));
    expect(e.kind).toBe('timeout');
    expect(e.message).toMatch(/made no progress for 200 ms \(upload\)/);
  });

  it('reset mid-body: network error, not replayed', async () => {
    const { sb, client } = await setup(
      (req) => {
        let n = 0;
        req.on('data', (c: Buffer) => {
          n += c.length;
          if (n > 1 << 20) req.socket.destroy();
        });
      },
      {},
      false,
    );
    const e = await failure(client.upload({ ...up, filePath: await file(8 << 20) }));
    expect(e.kind).toBe('network');
    expect(sb.hits).toHaveLength(1);
  });

  it('the file is closed after each upload, whether the service took it or not', async () => {
    let n = 0;
    const { sb, client } = await setup((_q, res) =>
      n++ % 2 === 0 ? json(res, 200, fakeStream()) : json(res, 400, { statusCode: 400, message: 'no' }),
    );
    const p = await file(300_000);
    const held = (): number =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === p;
        } catch {
          return false; // the listing's own descriptor, closed since
        }
      }).length;
    for (let i = 0; i < 10; i++) await client.upload({ ...up, filePath: p }).catch(() => undefined);
    expect(sb.hits).toHaveLength(10);
    expect(sb.hits.every((h) => h.bodyBytes === 300_000)).toBe(true);
    expect(held()).toBe(0);
  });

  it('bad input fails fast and sends nothing', async () => {
    const { sb, client } = await setup((_q, res) => json(res, 200, fakeStream()));
    const dir = await mkdtemp(join(tmpdir(), 'sluice-api-'));
    await mkdir(join(dir, 'folder'));
    // A FIFO opened for reading would wait for a writer: refused at once instead.
    execFileSync('mkfifo', [join(dir, 'pipe.wav')]);
    const p = await file(10);
    const cases: Array<[() => Promise<unknown>, RegExp]> = [
      [() => client.upload({ ...up, filePath: join(dir, 'missing.wav') }), /does not exist/],
      [() => client.upload({ ...up, filePath: join(dir, 'folder') }), /not a regular file \(it is a folder\)/],
      [() => client.upload({ ...up, filePath: join(dir, 'pipe.wav') }), /pipe\.wav is not a regular file\.$/],
      [() => client.upload({ ...up, streamId: 'not-a-uuid', filePath: p }), /stream id must be a UUID/],
      [() => client.upload({ ...up, templateId: '', filePath: p }), /template id is required/],
      [() => client.upload({ ...up, templateId: 'X/Y Z', filePath: p }), /template id must be letters, digits/],
      [() => client.upload({ ...up, groupId: 'g', filePath: p }), /group id must be a UUID/],
      [() => client.upload({ ...up }), /exactly one of a file path or a media URL/],
      [() => client.findStream('123'), /must be a UUID/],
      [() => client.cancelStream(''), /must be a UUID/],
      [() => client.streamComponents('x'), /must be a UUID/],
      [() => client.exportJson('x'), /must be a UUID/],
      [() => client.streamUsage('x'), /must be a UUID/],
      [() => client.listStreams({ page: -1 }), /page must be an integer ≥ 0/],
      [() => client.listStreams({ size: 0 }), /page size must be an integer ≥ 1/],
      [() => client.listStreams({ size: 1.5 }), /page size/],
      [() => client.listStreams({ states: ['DONE' as never] }), /Unknown stream state/],
      [() => client.usageReport({ start: 'yesterday' }), /ISO-8601/],
      [() => client.usageReport({ start: new Date(NaN) }), /invalid/],
      [() => client.getTemplate('no pe'), /template id must be letters, digits/],
    ];
    for (const [call, re] of cases) {
      const e = await failure(call());
      expect(e.kind).toBe('input');
      expect(e.errorClass).toBe('request');
      expect(e.message).toMatch(re);
    }
    expect(sb.hits).toHaveLength(0);
  });
});
