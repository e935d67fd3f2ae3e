// Card and recorder rules: which file of a take is processed, and the sentence that says which won.
import { describe, expect, it } from 'vitest';
import { cardRuleFor, cardVerdict } from '../../main/engine/card-rules.js';

describe('card rules', () => {
  it.each([
    ['PRIVATE/M4ROOT/SUB/C0001S03.MP4', 'sony-proxy', 'PRIVATE/M4ROOT/CLIP/C0001.MP4'],
    ['SUB/C0001S03.MP4', 'sony-proxy', 'CLIP/C0001.MP4'],
    ['DCIM/DJI_001/DJI_20261121_0001_D.LRF', 'dji-proxy', 'DCIM/DJI_001/DJI_20261121_0001_D.MP4'],
    ['DCIM/100GOPRO/GL010234.LRV', 'gopro-proxy', 'DCIM/100GOPRO/GX010234.MP4'],
    ['ZOOM0007/ZOOM0007_Tr1.WAV', 'zoom-track', 'ZOOM0007/ZOOM0007_LR.WAV'],
    ['ZOOM0007/ZOOM0007_Tr3_4.WAV', 'zoom-track', 'ZOOM0007/ZOOM0007_LR.WAV'],
  ])('%s: %s, won by %s', (rel, id, winner) => {
    const applied = cardRuleFor(rel);
    expect(applied?.rule.id).toBe(id);
    expect(applied?.candidates).toContain(winner);
    const v = cardVerdict(rel.split('/').pop()!, applied, winner);
    expect(v).toMatchObject({ skip: true, rule: id, winner });
    expect(v.skip && v.reason).toContain(`${winner} is processed instead`);
  });

  it('skips caches and proxy folders whatever is beside them', () => {
    for (const rel of [
      'Proxy/A001_C002.mov',
      'Resolve/CacheClip/x.mov',
      'Media Cache Files/a.mp4',
      'P/Proxies/b.mov',
    ]) {
      const v = cardVerdict('x', cardRuleFor(rel), null);
      expect(v.skip, rel).toBe(true);
    }
  });

  it('takes a proxy or a track when it is all there is of the take', () => {
    expect(cardVerdict('C0001S03.MP4', cardRuleFor('SUB/C0001S03.MP4'), null)).toEqual({ skip: false });
    expect(cardVerdict('ZOOM0007_Tr1.WAV', cardRuleFor('ZOOM0007_Tr1.WAV'), null)).toEqual({ skip: false });
  });

  it('a folder that chose the tracks takes them and skips the mix', () => {
    expect(cardRuleFor('ZOOM0007_Tr1.WAV', 'tracks')).toBeNull();
    const mix = cardRuleFor('ZOOM0007_LR.WAV', 'tracks');
    expect(mix?.rule.id).toBe('zoom-mix');
    expect(cardVerdict('ZOOM0007_LR.WAV', mix, 'ZOOM0007_Tr1.WAV')).toMatchObject({ skip: true });
    expect(cardRuleFor('ZOOM0007_LR.WAV', 'mix')).toBeNull();
  });

  it('leaves ordinary clips alone', () => {
    for (const rel of [
      'PRIVATE/M4ROOT/CLIP/C0001.MP4',
      'DCIM/100CANON/MVI_0042.MOV',
      'SUBWAY/interview.mp4',
      'A001_C002.mov',
      'GX010234.MP4',
    ]) {
      expect(cardRuleFor(rel), rel).toBeNull();
    }
  });
});

describe('proxy folders name the original they stand for', () => {
  it.each([
    ['BMPCC/A001_11211423/Proxy/A001_11211423_C002.mov', 'BMPCC/A001_11211423/A001_11211423_C002.mov'],
    ['Proxy/A001_C002.mov', 'A001_C002.mov'],
    ['Footage/Proxies/C0001_Proxy.mp4', 'Footage/C0001.MP4'],
    ['Day1/Proxy/B002_C001.mov', 'Day1/B002_C001.mxf'],
  ])('%s: won by %s when it is there, skipped all the same when not', (rel, winner) => {
    const applied = cardRuleFor(rel);
    expect(applied?.rule.id).toBe('proxy-folder');
    expect(applied?.candidates).toContain(winner);
    const name = rel.split('/').pop()!;
    const won = cardVerdict(name, applied, winner);
    expect(won).toMatchObject({ skip: true, rule: 'proxy-folder', winner });
    expect(won.skip && won.reason).toBe(
      `${name} is skipped: it is a proxy (Blackmagic, Resolve, Premiere); ${winner} is processed instead.`,
    );
    expect(cardVerdict(name, applied, null)).toMatchObject({ skip: true, winner: null });
  });
});
