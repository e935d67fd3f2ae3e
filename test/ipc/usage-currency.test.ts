// A currency the service does not price in is refused in words on the currency field: which one
// (by name), and what to do, instead of the service's "Unsupported currency: AFN".
import { describe, expect, it } from 'vitest';
import { useBridgeEnv } from './helpers.js';

const t = useBridgeEnv();

describe('usage in a currency the service refuses', () => {
  it('names the currency and says what to choose instead', async () => {
    const r = await t.bridge.handlers['usage:report']({ currency: 'AFN' });
    expect(r.ok).toBe(false);
    const field = r.ok ? undefined : r.error.fields?.[0];
    expect(field).toEqual({
      path: 'currency',
      message: 'The service does not price usage in Afghan Afghani (AFN). Choose another currency, or Credits.',
    });
  });

  it('a currency it prices in answers as before', async () => {
    const r = await t.bridge.handlers['usage:report']({ currency: 'EUR' });
    expect(r.ok).toBe(true);
  });
});
