// The recipes as main defines them (`recipes:list`), read once and again when the saved custom
// recipes change: the choosers read from here which files a recipe makes, so that rule lives in
// main alone (engine/recipes/render.ts, recipeFormats).
import type { RecipeRef, RecipeView, ResultFormat } from '../../../../preload/contract';
import { call } from '../api';

class RecipeList {
  #views = $state.raw<RecipeView[]>([]);
  #loadedFor: string | undefined;

  get views(): readonly RecipeView[] {
    return this.#views;
  }

  /** The files a recipe makes; empty for none, or before the list has come. */
  formatsOf(id: RecipeRef | null | undefined): ResultFormat[] {
    return id ? (this.#views.find((r) => r.id === id)?.formats ?? []) : [];
  }

  /** Reads the list when the custom recipes it was read for have changed (their JSON is the key). */
  async load(key: string): Promise<void> {
    if (this.#loadedFor === key) return;
    this.#loadedFor = key;
    const r = await call('recipes:list');
    if (r.ok) this.#views = r.value;
    else this.#loadedFor = undefined;
  }
}

export const recipeList = new RecipeList();
