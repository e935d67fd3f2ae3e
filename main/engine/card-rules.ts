// Camera cards and recorders write the same take several times: a proxy beside the clip, an NLE's
// cache of it, each input of a recorder as its own file beside the mix. Processing each would bill
// one take two or three times. These rules, data first, say which files are the same take as
// another and which one wins; the intake looks up whether the winner is there and skips the rest,
// saying which file won. Pure: paths in, decisions out.

/** What a watch folder processes of a multi-track recorder's take. */
export type TrackChoice = 'mix' | 'tracks';

export interface CardRule {
  readonly id: string;
  /** What the skipped file is, for the sentence that reports the skip. */
  readonly what: string;
  /** Matches the path relative to the folder being walked, with `/` separators. */
  readonly match: RegExp;
  /**
   * Where the winning file would be (relative, several spellings); empty: skipped whatever is
   * beside it (caches and proxy folders hold nothing but copies).
   */
  readonly winners: (rel: string, m: RegExpExecArray) => string[];
  /** Only for this track choice (recorders); absent: always. */
  readonly when?: TrackChoice;
  /**
   * Skipped even when no candidate is there (a proxy folder holds nothing but copies); a candidate
   * found is still named as the file that won.
   */
  readonly always?: true;
}

const swapExt = (rel: string, exts: readonly string[]): string[] => {
  const stem = rel.replace(/\.[^./]+$/, '');
  return exts.map((e) => `${stem}.${e}`);
};

export const CARD_RULES: readonly CardRule[] = [
  {
    // Sony XAVC: PRIVATE/M4ROOT/SUB/C0001S03.MP4 is the proxy of PRIVATE/M4ROOT/CLIP/C0001.MP4.
    id: 'sony-proxy',
    what: 'a Sony proxy',
    match: /^(.*?)(?:^|\/)SUB\/([^/]+?)S03\.MP4$/i,
    winners: (_rel, m) => {
      const root = m[1] ? `${m[1]}/` : '';
      return [`${root}CLIP/${m[2]}.MP4`, `${root}CLIP/${m[2]}.mp4`];
    },
  },
  {
    id: 'dji-proxy',
    what: 'a DJI low-resolution proxy',
    match: /\.LRF$/i,
    winners: (rel) => swapExt(rel, ['MP4', 'mp4', 'MOV', 'mov']),
  },
  {
    // GoPro: GL010234.LRV is the proxy of GX010234.MP4 (GH… on older cameras).
    id: 'gopro-proxy',
    what: 'a GoPro low-resolution proxy',
    match: /^(.*?)G[LX]?(\d{6})\.LRV$/i,
    winners: (_rel, m) => ['GX', 'GH', 'GP'].flatMap((p) => [`${m[1]}${p}${m[2]}.MP4`, `${m[1]}${p}${m[2]}.mp4`]),
  },
  {
    // Blackmagic cameras and Resolve: A001/Proxy/A001_C002.mov beside A001/A001_C002.mov (or .mxf);
    // Premiere: Proxies/C0001_Proxy.mp4 beside C0001.MP4.
    id: 'proxy-folder',
    what: 'a proxy (Blackmagic, Resolve, Premiere)',
    match: /^(?:(.*)\/)?(?:Proxy|Proxies)\/(?:.*\/)?([^/]+?)(?:_Proxy)?\.[^./]+$/i,
    winners: (_rel, m) => {
      const dir = m[1] ? `${m[1]}/` : '';
      return ['mov', 'MOV', 'mp4', 'MP4', 'mxf', 'MXF'].map((e) => `${dir}${m[2]}.${e}`);
    },
    always: true,
  },
  {
    id: 'nle-cache',
    what: "an editing application's cache",
    match:
      /(?:^|\/)(?:CacheClip|OptimizedMedia|Media Cache Files|Media Cache|Adobe Premiere Pro Video Previews|Adobe Premiere Pro Audio Previews|Render Files|Transcoded Media)\//i,
    winners: () => [],
  },
  {
    // Zoom H4n/H5/H6/F-series: ZOOM0007_LR.WAV is the mix, _Tr1, _Tr2, _Tr3_4 its inputs.
    id: 'zoom-track',
    what: "one input of a recorder's take",
    match: /^(.*)_Tr[\d_]+\.WAV$/i,
    winners: (_rel, m) => [`${m[1]}_LR.WAV`, `${m[1]}_LR.wav`, `${m[1]}_MS.WAV`],
    when: 'mix',
  },
  {
    id: 'zoom-mix',
    what: "a recorder's mix of its inputs",
    match: /^(.*)_(?:LR|MS)\.WAV$/i,
    winners: (_rel, m) => [`${m[1]}_Tr1.WAV`, `${m[1]}_Tr1.wav`],
    when: 'tracks',
  },
];

export type CardVerdict =
  | { readonly skip: false }
  | { readonly skip: true; readonly rule: string; readonly reason: string; readonly winner: string | null };

/** The rule that applies to a path, and where its winner could be; null when none applies. */
export function cardRuleFor(rel: string, tracks: TrackChoice = 'mix'): { rule: CardRule; candidates: string[] } | null {
  const p = rel.replace(/\\/g, '/');
  for (const rule of CARD_RULES) {
    if (rule.when !== undefined && rule.when !== tracks) continue;
    const m = rule.match.exec(p);
    if (m) return { rule, candidates: rule.winners(p, m) };
  }
  return null;
}

/**
 * The verdict once the caller knows which candidate exists (`found`, or null). A rule with
 * candidates skips only when one is there: a lone proxy or track is all there is of the take.
 */
export function cardVerdict(
  name: string,
  applied: { rule: CardRule; candidates: string[] } | null,
  found: string | null,
): CardVerdict {
  if (!applied) return { skip: false };
  const { rule, candidates } = applied;
  if (candidates.length > 0 && found === null && !rule.always) return { skip: false };
  const reason =
    found === null
      ? `${name} is skipped: it is ${rule.what}, a copy of footage processed from its original.`
      : `${name} is skipped: it is ${rule.what}; ${found} is processed instead.`;
  return { skip: true, rule: rule.id, reason, winner: found };
}
