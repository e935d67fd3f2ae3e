// A watch folder's summary line in Settings: what an editor checks before dropping a card in (the
// template, the recipe, the caption layout, where results go, the glossary, the files). Pure.
import type { WatchFolderView } from '../../../preload/contract.js';
import { captionPresetName } from '../../../common/caption-presets.js';

export function folderSummary(
  f: Pick<WatchFolderView, 'recursive' | 'output' | 'outputDir' | 'glossary'>,
  names: { template: string; recipe: string | undefined },
): string[] {
  const layouts = [f.output.captions.preset, ...(f.output.moreCaptions ?? [])].map(captionPresetName);
  const terms = f.glossary?.length ?? 0;
  return [
    names.template,
    names.recipe ? `Recipe: ${names.recipe}` : 'Transcript only',
    `Captions: ${layouts.join(' + ')}`,
    f.outputDir ? `Results in ${f.outputDir}` : 'Results beside each file',
    terms ? `Glossary: ${terms} ${terms === 1 ? 'term' : 'terms'}` : 'No glossary',
    f.recursive ? 'with subfolders' : 'top level only',
    f.output.formats.map((x) => x.toUpperCase()).join(', '),
  ];
}
