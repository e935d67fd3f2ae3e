import js from '@eslint/js';
import globals from 'globals';
import svelte from 'eslint-plugin-svelte';
import tseslint from 'typescript-eslint';

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
    files: ['renderer/**/*.svelte', 'renderer/**/*.svelte.ts'],
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
);
