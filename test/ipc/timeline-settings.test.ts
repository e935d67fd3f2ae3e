// The editor formats' timeline choice crosses the bridge and lands in the settings, checked twice:
// its shape by the IPC schema, its timecode by the settings schema.
import { describe, expect, it } from 'vitest';
import { SCHEMAS } from '../../main/ipc/schemas.js';
import { RESULT_FORMATS, SETTINGS } from '../../main/engine/settings.js';

const patch = (output: Record<string, unknown>) => ({ patch: { defaults: { output } } });

describe('timeline settings', () => {
  it('the IPC schema takes a start and a rate, and every format at once', () => {
    const ok = SCHEMAS['settings:update'].safeParse(
      patch({ timeline: { start: '01:00:00:00', defaultRate: '29.97df' }, formats: [...RESULT_FORMATS] }),
    );
    expect(ok.success).toBe(true);
    expect(
      SCHEMAS['settings:update'].safeParse(patch({ timeline: { start: 'source', defaultRate: '12' } })).success,
    ).toBe(false);
    expect(SCHEMAS['settings:update'].safeParse(patch({ timeline: { start: 'source' } })).success).toBe(false);
  });

  it('the settings schema keeps a valid choice, refuses a start that is no timecode, and needs none', () => {
    const withTimeline = SETTINGS.parse({
      defaults: { output: { timeline: { start: '10:00:00:00', defaultRate: '25' } } },
    });
    expect(withTimeline.defaults.output.timeline).toEqual({ start: '10:00:00:00', defaultRate: '25' });
    expect(SETTINGS.safeParse({ defaults: { output: { timeline: { start: 'soon' } } } }).success).toBe(false);
    expect(SETTINGS.parse({}).defaults.output.timeline).toBeUndefined();
  });
});
