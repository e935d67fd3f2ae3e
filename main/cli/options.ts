// Argument parsers shared by the CLI commands.
import { InvalidArgumentError } from 'commander';
import { RESULT_FORMATS, type ResultFormat } from '../engine/settings.js';
import { isRecipeId, RECIPE_IDS, type RecipeId } from '../engine/recipes/recipes.js';

export function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port number (0–65535).');
  return n;
}

export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a whole number ≥ 1.');
  return n;
}

export function parseFormats(value: string): ResultFormat[] {
  const list = value
    .split(',')
    .map((f) => f.trim().toLowerCase())
    .filter(Boolean);
  const bad = list.filter((f) => !(RESULT_FORMATS as readonly string[]).includes(f));
  if (bad.length > 0 || list.length === 0) {
    throw new InvalidArgumentError(`must list formats among ${RESULT_FORMATS.join(', ')} (got ${value}).`);
  }
  return [...new Set(list)] as ResultFormat[];
}

/** `--recipe`: one of the recipes, or `none` to send no recipe even when Settings has a default. */
export function parseRecipe(value: string): RecipeId | 'none' {
  const v = value.trim().toLowerCase();
  if (v === 'none' || isRecipeId(v)) return v;
  throw new InvalidArgumentError(`must be one of ${RECIPE_IDS.join(', ')} or none (got ${value}).`);
}
