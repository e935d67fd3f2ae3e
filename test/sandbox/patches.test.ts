import { describe, expect, it } from 'vitest';
import { findTemplate, TEMPLATE_IDS, type TemplateSpec } from '../../main/service/templates.js';
import { SandboxHttpError } from '../../main/sandbox/http-error.js';
import { applyPatches, collectPatches, type PatchSources } from '../../main/sandbox/patch-apply.js';
import { groupQuery, opFromText, queryPatches } from '../../main/sandbox/patch-grammar.js';

const T = (id: string): TemplateSpec => findTemplate(id) as TemplateSpec;
const tx = T(TEMPLATE_IDS.transcription);
const dia = T(TEMPLATE_IDS.diarization);
const ro = T(TEMPLATE_IDS.romanian);
const roDia = T(TEMPLATE_IDS.romanianDiarization);

function run(template: TemplateSpec, query: string, more: Omit<PatchSources, 'query'> = {}) {
  return applyPatches(template, collectPatches({ ...more, query: groupQuery(new URLSearchParams(query)) }));
}

function errorOf(f: () => unknown): SandboxHttpError {
  try {
    f();
  } catch (e) {
    if (e instanceof SandboxHttpError) return e;
    throw e;
  }
  throw new Error('expected a SandboxHttpError');
}

describe('value → operation', () => {
  it.each([
    ['en', 'replace', 'en'],
    ['-', 'remove', null],
    ['+fr', 'add', 'fr'],
    ['\\+1 call', 'replace', '+1 call'],
    ['\\- bullet', 'replace', '- bullet'],
    ['-x', 'replace', '-x'],
    ['\\x', 'replace', '\\x'],
  ])('%s → %s %s', (value, op, out) => {
    expect(opFromText(value)).toEqual({ op, value: out });
  });
});

describe('which query keys are patches', () => {
  it('skips documented and auth parameters, strips patches., keeps repeated keys as arrays', () => {
    const q = groupQuery(
      new URLSearchParams(
        'streamConfigurationTemplateId=x&id=1&name=n&groupId=g&persist=true&persistTags=a&matchPersistTags=ANY' +
          '&access_token=k&client_id=c&client_secret=s&webhook=u&webhook.stream=u&patches.name=N&language=en&language=fr',
      ),
    );
    const ops = queryPatches(q);
    expect(ops.map((o) => [o.key, o.value])).toEqual([
      ['name', 'N'],
      ['language', ['en', 'fr']],
    ]);
  });
});

describe('applying patches (valid)', () => {
  const cases: Array<[string, TemplateSpec, string, number, string[], unknown]> = [
    ['alias boolean typed', tx, 'summary=true', 1, ['summary', 'enabled'], true],
    ['alias enum', tx, 'summaryStructure=bullet_points', 1, ['summary', 'properties', 'structure'], 'bullet_points'],
    ['alias number', tx, 'noSpeechThreshold=0.3', 0, ['noSpeechThreshold'], 0.3],
    ['one language', tx, 'language=de', 0, ['language'], 'de'],
    ['several languages', tx, 'language=en&language=de', 0, ['allowedLanguages'], ['en', 'de']],
    ['dotted path by index', tx, 'processors.0.properties.vad=false', 0, ['vad'], false],
    ['dotted path by id', tx, 'processors.transcriber.properties.vad=false', 0, ['vad'], false],
    ['slash path', tx, 'processors%2Ftranscriber%2Fproperties%2Fvad=false', 0, ['vad'], false],
    [
      'leading slash path',
      tx,
      '%2Fprocessors%2F1%2Fproperties%2Fsummary%2Fenabled=true',
      1,
      ['summary', 'enabled'],
      true,
    ],
    ['patches. prefix', tx, 'patches.vad=false', 0, ['vad'], false],
    ['escaped plus', tx, 'ask0=%5C%2B1%20call', 1, ['askAnything', '0', 'content'], '+1 call'],
    ['escaped minus', tx, 'ask1=%5C-%20bullet', 1, ['askAnything', '1', 'content'], '- bullet'],
    ['add on empty', tx, 'language=%2Bfr', 0, ['language'], 'fr'],
    ['ask id', tx, 'ask2Id=booking', 1, ['askAnything', '2', 'promptId'], 'booking'],
    ['diarization integer', dia, 'maxSpeakersNumber=3', 1, ['maxSpeakersNumber'], 3],
    ['romanian boolean', ro, 'disfluencies=true', 0, ['disfluencies'], true],
    ['romanian splitStereo', ro, 'splitStereo=true', 0, ['splitStereo'], true],
    [
      'enhancement',
      tx,
      'enhancedTranscription=true&etModel=enhanced',
      1,
      ['enhancedTranscription', 'model'],
      'enhanced',
    ],
  ];
  it.each(cases)('%s', (_n, template, query, proc, path, expected) => {
    const props = run(template, query);
    let cur: unknown = props[proc];
    for (const k of path) cur = (cur as Record<string, unknown>)[k];
    expect(cur).toEqual(expected);
  });

  it('remove deletes the property', () => {
    const props = run(tx, 'vad=-');
    expect(props[0]).not.toHaveProperty('vad');
  });

  it('+ appends to an array property', () => {
    const path = 'processors.0.properties.allowedLanguages';
    const props = run(tx, `${path}=en&${path}=de&patches.${path}=%2Bfr`);
    expect(props[0]?.allowedLanguages).toEqual(['en', 'de', 'fr']);
  });

  it('applies header, then query, then multipart: the last one wins', () => {
    const header = JSON.stringify([{ op: 'replace', path: '/processors/0/properties/noSpeechThreshold', value: 0.1 }]);
    expect(run(tx, '', { header })[0]?.noSpeechThreshold).toBe(0.1);
    expect(run(tx, 'noSpeechThreshold=0.2', { header })[0]?.noSpeechThreshold).toBe(0.2);
    expect(
      run(tx, 'noSpeechThreshold=0.2', { header, multipart: { noSpeechThreshold: 0.3 } })[0]?.noSpeechThreshold,
    ).toBe(0.3);
  });

  it('multipart values: typed JSON and text both work, arrays allowed', () => {
    const props = run(tx, '', { multipart: { summary: 'true', sentimentAnalysis: true, language: ['en', 'ro'] } });
    expect(props[1]?.summary).toMatchObject({ enabled: true });
    expect(props[1]?.sentimentAnalysis).toMatchObject({ enabled: true });
    expect(props[0]?.allowedLanguages).toEqual(['en', 'ro']);
  });
});

describe('applying patches (rejected, §11.3 / C7)', () => {
  const cases: Array<[string, TemplateSpec, string, number, string, string?]> = [
    ['unknown key', tx, 'langs=en', 400, 'STREAM_CONFIGURATION_BAD_PATCH', 'Forbidden patch: /langs'],
    [
      'path outside properties',
      tx,
      'processors.0.source=x',
      400,
      'STREAM_CONFIGURATION_BAD_PATCH',
      'Forbidden patch: /processors/0/source',
    ],
    ['unknown processor', tx, 'processors.9.properties.vad=true', 400, 'STREAM_CONFIGURATION_BAD_PATCH'],
    ['language on Romanian', ro, 'language=ro', 400, 'STREAM_CONFIGURATION_BAD_PATCH', 'Forbidden patch: /language'],
    ['vad on Romanian', ro, 'vad=true', 400, 'STREAM_CONFIGURATION_BAD_PATCH', 'Forbidden patch: /vad'],
    ['splitStereo alias on diarization', dia, 'splitStereo=true', 400, 'STREAM_CONFIGURATION_BAD_PATCH'],
    [
      'splitStereo path on diarization',
      roDia,
      'processors.transcriber.properties.splitStereo=true',
      400,
      'STREAM_CONFIGURATION_BAD_PATCH',
    ],
    ['ask3', tx, 'ask3=hello', 400, 'STREAM_CONFIGURATION_BAD_PATCH', 'Forbidden patch: /ask3'],
    [
      'ask slot 3 by path',
      tx,
      'processors.llm.properties.askAnything.3.content=x',
      400,
      'STREAM_CONFIGURATION_BAD_PATCH',
    ],
    [
      'findReplaceExpressions',
      ro,
      'processors.0.properties.findReplaceExpressions=x',
      400,
      'STREAM_CONFIGURATION_BAD_PATCH',
    ],
    ['boolean not boolean', tx, 'summary=yes', 400, 'PROCESSOR_PROPERTIES_VALIDATION_ERROR'],
    ['enum outside list', tx, 'summaryTone=formal', 400, 'PROCESSOR_PROPERTIES_VALIDATION_ERROR'],
    ['capitalised enum', tx, 'summaryTone=Conversational', 400, 'PROCESSOR_PROPERTIES_VALIDATION_ERROR'],
    ['non-numeric integer', dia, 'speakersNumber=two', 400, 'PROCESSOR_PROPERTIES_VALIDATION_ERROR'],
    ['fractional integer', dia, 'speakersNumber=2.5', 400, 'PROCESSOR_PROPERTIES_VALIDATION_ERROR'],
    ['threshold above 1', tx, 'noSpeechThreshold=1.5', 400, 'PROCESSOR_PROPERTIES_VALIDATION_ERROR'],
    ['min > max', dia, 'minSpeakersNumber=4&maxSpeakersNumber=2', 400, 'PROCESSOR_PROPERTIES_VALIDATION_ERROR'],
    ['bad language code', tx, 'language=English', 400, 'PROCESSOR_PROPERTIES_VALIDATION_ERROR'],
    ['repeated scalar', tx, 'summary=true&summary=false', 400, 'PROCESSOR_PROPERTIES_VALIDATION_ERROR'],
    ['ask id too long', tx, `ask0Id=${'x'.repeat(65)}`, 400, 'PROCESSOR_PROPERTIES_VALIDATION_ERROR'],
    ['format not JSON', tx, 'ask0=q&ask0Format=notjson', 400, 'PROCESSOR_PROPERTIES_VALIDATION_ERROR'],
    [
      'two questions, one answer key',
      tx,
      'ask0=q&ask1=r&ask1Id=0',
      400,
      'PROCESSOR_PROPERTIES_VALIDATION_ERROR',
      'ask1Id the answer key "0" is also question 1\'s (ask0); give each question its own key',
    ],
    ['unknown property by path', tx, 'processors.0.properties.foo=1', 400, 'PROCESSOR_PROPERTIES_VALIDATION_ERROR'],
    ['object via path', tx, 'processors.llm.properties.summary=true', 400, 'PROCESSOR_PROPERTIES_VALIDATION_ERROR'],
    ['empty segment', tx, 'processors..properties=1', 400, 'STREAM_CONFIGURATION_BAD_PATCH_ALIAS'],
  ];
  it('takes one answer key twice when only one of its questions is asked', () => {
    expect(() => run(tx, 'ask1=r&ask1Id=0&ask0Id=1')).not.toThrow();
    expect(() => run(tx, 'ask1=r&ask1Id=0')).not.toThrow();
  });

  it.each(cases)('%s', (_n, template, query, status, name, message) => {
    const e = errorOf(() => run(template, query));
    expect([e.statusCode, e.internalErrorName]).toEqual([status, name]);
    if (message !== undefined) expect(e.message).toBe(message);
  });

  it.each([
    ['not JSON', 'nope', 'HTTP_STREAM_CONFIGURATION_ERROR'],
    ['move op', JSON.stringify([{ op: 'move', from: '/a', path: '/b' }]), 'STREAM_CONFIGURATION_BAD_PATCH'],
    [
      'object value',
      JSON.stringify([{ op: 'replace', path: '/processors/0/properties/language', value: { a: 1 } }]),
      'STREAM_CONFIGURATION_BAD_PATCH',
    ],
    [
      'outside properties',
      JSON.stringify([{ op: 'add', path: '/langs', value: 'en' }]),
      'STREAM_CONFIGURATION_BAD_PATCH',
    ],
  ])('header: %s', (_n, header, name) => {
    expect(errorOf(() => run(tx, '', { header })).internalErrorName).toBe(name);
  });

  it('multipart objects are refused', () => {
    expect(errorOf(() => run(tx, '', { multipart: { summary: { enabled: true } } })).internalErrorName).toBe(
      'STREAM_CONFIGURATION_BAD_PATCH',
    );
  });
});
