import js from '@eslint/js';
import globals from 'globals';
import svelte from 'eslint-plugin-svelte';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'release/**', 'node_modules/**', 'test-results/**', 'renderer/dist/**', '.ci/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': 'off',
    },
  },
  // The renderer: Svelte 5 components and rune modules, in a browser (no Node globals).
  ...svelte.configs.recommended,
  {
    files: ['renderer/**/*.svelte', 'renderer/**/*.svelte.ts', 'test/renderer/**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] } },
  },
  {
    files: ['renderer/src/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Electron stays in the shell: only main/electron/, main/index.ts and the preload may import it.
    files: ['main/**/*.ts'],
    ignores: ['main/electron/**', 'main/index.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'Only main/electron/ and main/index.ts may import Electron.' }] },
      ],
    },
  },
  {
    // Handlers carry out through the runtime; they never hold the service client themselves.
    files: ['main/ipc/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'rt', property: 'client', message: 'Ask the runtime (rt.*), not its client.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='client'][object.property.name='rt']",
          message: 'Ask the runtime (rt.*), not its client.',
        },
      ],
    },
  },
  {
    // The engine decides and does no I/O: besides its own folder and main/service/ (see the zone
    // below) it imports only the pure libraries it builds on (zod for settings, picomatch for
    // file filters, xmlbuilder2 for the editors' XML formats). No node:*, no other package.
    files: ['main/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!\\.|zod$|picomatch$|xmlbuilder2$)',
              message:
                'The engine imports only itself, main/service/, zod, picomatch and xmlbuilder2 (no node:*, no I/O).',
            },
          ],
        },
      ],
    },
  },
  {
    // No import cycles anywhere (a cycle makes load order decide what is initialised), and the
    // engine's folder boundary. The TypeScript resolver maps the `.js` specifiers of ESM sources
    // to their `.ts` files.
    files: ['main/**/*.ts', 'common/**/*.ts', 'preload/**/*.ts', 'renderer/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // Without these import-x skips .ts modules (it follows only the extensions it is told of).
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.main.json', 'tsconfig.preload.json', 'renderer/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          // One zone per floor: each imports only the floors below it (README, "Development").
          zones: [
            {
              target: './main/service',
              from: './main',
              except: ['./service'],
              message: 'main/service/ (the service contract) imports nothing else of Sluice.',
            },
            {
              target: './main/engine',
              from: './main',
              except: ['./engine', './service'],
              message: 'The engine imports only itself and main/service/.',
            },
            {
              target: './main/adapters',
              from: ['./main/ipc', './main/cli', './main/electron', './main/runtime', './main/index.ts', './preload'],
              message: 'Adapters carry out decisions below the runtime: no ipc, cli, electron, runtime or contract.',
            },
            {
              // The sandbox stands above the adapters (it is the service the product talks to, and
              // the runtime starts it): an adapter that started or read it would tie the product to
              // its own fake.
              target: './main/adapters',
              from: './main/sandbox',
              message: 'Adapters never import the sandbox: the runtime starts it and hands them its URL.',
            },
            {
              // Reading media files (the one probe): the adapters and the sandbox both measure media
              // with it, so it stands below both and knows neither.
              target: './main/media',
              from: './main',
              except: ['./media', './engine', './service'],
              message: 'main/media/ (the media probe) imports only itself, the engine and main/service/.',
            },
            {
              // The local copy of the service: the contract and the media probe, nothing of the product.
              target: './main/sandbox',
              from: './main',
              except: ['./sandbox', './service', './media'],
              message: 'The sandbox imports only itself, main/service/ and main/media/ (the probe).',
            },
            {
              target: './main/runtime',
              from: ['./main/ipc', './main/cli', './main/electron', './main/index.ts', './preload'],
              message: 'The runtime is shared by every shell: no ipc, cli, electron or contract.',
            },
            {
              target: './main/ipc',
              from: ['./main/cli', './main/electron', './main/index.ts'],
              message: 'The transports serve the CLI and the desktop shell; they import neither.',
            },
            {
              // Handlers and the web bridge take the services they name (runtime/services.ts); only
              // a process's composition root (cli/commands, electron) opens the Runtime itself.
              target: './main/ipc',
              from: './main/runtime/runtime.ts',
              message: 'Take the services you use (Pick<Services, ...>), not the whole Runtime.',
            },
            {
              // The pure layer every process imports: data and functions, no node:*, no DOM, no
              // Electron, no package (test/common/common.test.ts), and nothing of theirs.
              target: './common',
              from: ['./main', './preload', './renderer'],
              message: 'common/ is the pure layer main, preload and the renderer import: it imports none of them.',
            },
            {
              target: './renderer/src',
              from: ['./main', './preload'],
              except: ['./contract.ts', './contract', './labels.ts'],
              message: 'The renderer reaches main only through the preload contract.',
            },
          ],
        },
      ],
    },
  },
);
