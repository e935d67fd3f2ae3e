import { describe, expect, it } from 'vitest';
import type { ParamSpecView } from '../../preload/contract.js';
import { carryParams } from '../../renderer/src/lib/carry-params.js';

const spec = (name: string, extra: Partial<ParamSpecView> = {}): ParamSpecView => ({
  name,
  label: name,
  type: 'string',
  repeatable: false,
  longText: false,
  group: 'transcription',
  ...extra,
});

describe('carryParams', () => {
  it('keeps every parameter the new template accepts and drops the rest', () => {
    const to = [
      spec('language', { type: 'language', repeatable: true }),
      spec('summary', { type: 'boolean' }),
      spec('summaryTone', { type: 'enum', values: ['conversational', 'informative'] }),
    ];
    const typed = { language: ['en', 'de'], summary: true, vad: false, summaryTone: 'informative', ask0: 'Who?' };
    expect(carryParams(typed, to)).toEqual({ language: ['en', 'de'], summary: true, summaryTone: 'informative' });
  });

  it('drops a value the new template would refuse: a list where one value goes, an enum value it lacks', () => {
    const to = [spec('language', { type: 'language' }), spec('summaryTone', { type: 'enum', values: ['brief'] })];
    expect(carryParams({ language: ['en', 'de'], summaryTone: 'informative' }, to)).toEqual({});
  });
});
