// `sluice templates`: the templates the account may use (read from the configuration service, every
// page, merged with the public ones Sluice knows), their parameters and the languages `language`
// takes; `sluice templates check`: a template and parameters checked by the service's preview.
import { Option, type Command } from 'commander';
import { TemplateCatalogueCache } from '../../adapters/queue/template-catalogue-cache.js';
import { checkTemplateSettings } from '../../adapters/queue/template-check.js';
import { catalogueNotice } from '../../service/template-catalogue.js';
import { LANGUAGES } from '../../service/templates.js';
import { addCommonOptions, templateAndParams, UsageError, type CommonFlags, type JobFlags } from '../context.js';
import { renderTable, WIDE_OPTION, type Column } from '../table.js';
import { wrapList } from './info.js';
import { fail, withClient } from './service.js';
import { SettingsStore } from '../../adapters/store/state/settings-store.js';
import { stateDirOf } from '../context.js';

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });
export const languageName = (code: string): string => languageNames.of(code) ?? code;

type ListFlags = CommonFlags & { wide?: boolean };
type CheckFlags = JobFlags;

export function registerTemplates(program: Command): void {
  const templates = addCommonOptions(
    program
      .command('templates')
      .description('The templates your account may use, their parameters, and the languages the service supports.')
      .option(...WIDE_OPTION),
  ).action(async (flags: ListFlags) => {
    process.exitCode = await withClient(flags, async (client) => {
      const catalogue = await new TemplateCatalogueCache(() => client.iterateTemplates()).get();
      const notice = catalogueNotice(catalogue);
      const languages = LANGUAGES.map((code) => ({ code, name: languageName(code) }));
      if (flags.json) {
        const list = catalogue.templates.map((t) => ({
          id: t.id,
          name: t.name,
          description: t.description,
          account: t.account === true,
          sandboxOnly: t.sandboxOnly === true,
          params: t.params.map((p) => p.name),
        }));
        console.log(JSON.stringify({ source: catalogue.source, notice, templates: list, languages }, null, 2));
        return 0;
      }
      if (notice) console.error(notice);
      const columns: Column[] = [
        { header: 'Template', shrink: 'none' },
        { header: 'Name' },
        { header: 'Parameters' },
        { header: 'Description' },
      ];
      const rows = catalogue.templates.map((t) => [
        t.id,
        t.sandboxOnly && !t.name.includes('sandbox only')
          ? `${t.name} (sandbox only)`
          : t.account
            ? `${t.name} (your account)`
            : t.name,
        t.params.map((p) => p.name).join(', '),
        t.description,
      ]);
      console.log(renderTable(columns, rows, { wide: flags.wide === true }));
      console.log('');
      // Two short lines rather than one long one: the heading must fit a 60-column terminal too.
      console.log('Languages for `--param language=CODE`');
      console.log('(repeat it for several; none: detected automatically):');
      console.log(
        wrapList(
          languages.map((l) => `${l.code} ${l.name}`),
          flags.wide,
        ),
      );
      return 0;
    }).catch(fail);
  });

  addCommonOptions(
    templates
      .command('check')
      .description('Check a template and parameters with the service before a batch (nothing is processed).')
      .option('--template <id>', 'configuration template id (default: from settings)')
      .addOption(
        new Option('--param <key=value>', 'template parameter; repeatable (language may repeat)')
          .argParser((v: string, prev: string[]) => [...prev, v])
          .default([]),
      ),
  ).action(async (flags: CheckFlags) => {
    const settings = new SettingsStore(stateDirOf(flags), { damaged: 'ignore' }).get();
    process.exitCode = await withClient(flags, async (client) => {
      const catalogue = await new TemplateCatalogueCache(() => client.iterateTemplates()).get();
      let chosen;
      try {
        chosen = templateAndParams(flags, settings, catalogue);
      } catch (e) {
        if (!(e instanceof UsageError)) throw e;
        console.error(`sluice templates check: ${e.message}`);
        return 2;
      }
      const result = await checkTemplateSettings(
        { previewTemplate: (id, patches) => client.previewTemplate(id, patches) },
        catalogue,
        chosen.templateId,
        chosen.params,
      );
      if (flags.json) {
        console.log(JSON.stringify({ templateId: chosen.templateId, params: chosen.params, ...result }, null, 2));
        return result.ok ? 0 : 1;
      }
      if (result.notice) console.error(result.notice);
      if (result.ok) {
        console.log(`The service accepts template ${chosen.templateId} with these parameters.`);
        return 0;
      }
      const who = result.checkedBy === 'service' ? 'The service refuses' : 'Sluice refuses';
      console.error(`${who} these settings:`);
      for (const p of result.problems) console.error(`  ${p.message}`);
      return 1;
    }).catch(fail);
  });
}
