// How many custom recipes there may be, and how long their texts: main refuses past these, and
// Settings says so while the editor types.
export const CUSTOM_RECIPE_LIMITS = { count: 20, name: 60, prompt: 4000, system: 4000 } as const;
