// Recipes: what to ask the service's audio-intelligence layer (§11.2) for a kind of recording,
// as data. A recipe is a summary setting plus at most three prompts, each with its system prompt,
// the id its answer comes back under in `askAnything`, and a JSON Schema that forces the answer's
// shape. The AI layer sees only the transcript's text, not its times (§6.4), so anything that needs
// a time (chapters, quotes) is asked for with a verbatim quote of its first words, which Sluice
// finds in the transcript's words afterwards (align.ts).
//
// Schemas follow the contract's rules: no `default`, no free-form objects (every object lists its
// properties, requires them all and allows no others).

import { isRecipeId, RECIPE_CHOICE_ROWS, type RecipeId, type RecipeRef } from '../../../common/recipe-choices.js';

// A built-in's id, name and description are common/recipe-choices.ts's (the renderer lists them).
export {
  RECIPE_IDS,
  isRecipeId,
  type CustomRecipeId,
  type RecipeId,
  type RecipeRef,
} from '../../../common/recipe-choices.js';

/** The answer keys Sluice reads: results are made from the answers under these ids. */
export const ANSWER_IDS = {
  chapters: 'sluice-chapters',
  quotes: 'sluice-quotes',
  keywords: 'sluice-keywords',
  decisions: 'sluice-decisions',
  actions: 'sluice-actions',
} as const;

export interface RecipePrompt {
  /** `ask<N>Id`: the key of the answer in `askAnything` (≤ 64 characters). */
  id: string;
  /** `ask<N>`. */
  prompt: string;
  /** `ask<N>System`. */
  system: string;
  /** `ask<N>Format`: the JSON Schema, as an object (sent as its JSON text). */
  format: Record<string, unknown>;
}

export interface Recipe {
  /** A built-in's RecipeId, or a custom recipe's `custom-…` id (custom-recipes.ts). */
  id: RecipeRef;
  /** A custom recipe: the built-in it was copied from (its answer ids and schemas). */
  basedOn?: RecipeId;
  label: string;
  description: string;
  summary: {
    length: 'brief' | 'detailed';
    tone: 'conversational' | 'informative';
    structure: 'paragraphs' | 'bullet_points';
  };
  /** At most three (§11.2: three slots). */
  prompts: readonly RecipePrompt[];
}

const str = (description: string) => ({ type: 'string', description });

/** An object the way the contract allows it: closed, every property required. */
function closed(properties: Record<string, unknown>): Record<string, unknown> {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

const FIRST_WORDS =
  'The first five to eight words of the passage, copied exactly as they appear in the transcript, ' +
  'with the same spelling; never paraphrased.';

const VERBATIM =
  'You read a transcript of a recording. Quote the transcript word for word where asked: ' +
  'the quoted words are searched for in the transcript to find their time, so a changed word loses it. ' +
  'Answer only with JSON that matches the schema.';

const chaptersPrompt = (what: string, count: string): RecipePrompt => ({
  id: ANSWER_IDS.chapters,
  prompt:
    `Divide this ${what} into ${count} chapters, one per topic, in the order they occur; the first chapter ` +
    'starts at the beginning. Give each chapter a short title (at most six words) and the exact first words ' +
    'spoken in it. Also suggest a title for the whole recording.',
  system: VERBATIM,
  format: closed({
    title: str('A title for the whole recording, at most ten words.'),
    chapters: {
      type: 'array',
      minItems: 1,
      maxItems: 20,
      items: closed({ title: str('The chapter title, at most six words.'), firstWords: str(FIRST_WORDS) }),
    },
  }),
});

const quotesPrompt = (min: number, max: number, why: string): RecipePrompt => ({
  id: ANSWER_IDS.quotes,
  prompt:
    `Pick ${min} to ${max} pull quotes: ${why}. Each is one or two sentences copied word for word from the ` +
    'transcript, in the order they occur.',
  system: VERBATIM,
  format: closed({
    quotes: {
      type: 'array',
      minItems: min,
      maxItems: max,
      items: closed({ quote: str('The quote, copied exactly from the transcript.') }),
    },
  }),
});

export const RECIPES: Readonly<Record<RecipeId, Recipe>> = {
  podcast: {
    id: 'podcast',
    ...RECIPE_CHOICE_ROWS.podcast,
    summary: { length: 'detailed', tone: 'conversational', structure: 'paragraphs' },
    prompts: [
      chaptersPrompt('podcast episode', 'three to ten'),
      quotesPrompt(3, 5, 'the most striking or shareable lines of the episode'),
      {
        id: ANSWER_IDS.keywords,
        prompt: 'List five to twelve keywords for this episode: topics, names and places a listener would search for.',
        system: 'You read a transcript of a podcast episode. Answer only with JSON that matches the schema.',
        format: closed({
          keywords: { type: 'array', minItems: 1, maxItems: 12, items: str('One keyword or short phrase.') },
        }),
      },
    ],
  },
  interview: {
    id: 'interview',
    ...RECIPE_CHOICE_ROWS.interview,
    summary: { length: 'brief', tone: 'informative', structure: 'paragraphs' },
    prompts: [
      chaptersPrompt('interview', 'as many as there are topics (at most twenty)'),
      quotesPrompt(3, 10, 'the strongest sound bites an editor would cut to'),
    ],
  },
  meeting: {
    id: 'meeting',
    ...RECIPE_CHOICE_ROWS.meeting,
    summary: { length: 'detailed', tone: 'informative', structure: 'bullet_points' },
    prompts: [
      {
        id: ANSWER_IDS.decisions,
        prompt: 'List the decisions taken in this meeting, one sentence each. An empty list when none was taken.',
        system: 'You read a transcript of a meeting. Answer only with JSON that matches the schema.',
        format: closed({
          decisions: { type: 'array', maxItems: 30, items: closed({ decision: str('The decision, one sentence.') }) },
        }),
      },
      {
        id: ANSWER_IDS.actions,
        prompt:
          'List the action items agreed in this meeting: the task, who owns it (as named in the meeting, or ' +
          '"unassigned") and the due date if one was said (else an empty string).',
        system: 'You read a transcript of a meeting. Answer only with JSON that matches the schema.',
        format: closed({
          actions: {
            type: 'array',
            maxItems: 30,
            items: closed({
              task: str('What is to be done.'),
              owner: str('Who does it, or "unassigned".'),
              due: str('When it is due, as said in the meeting, or an empty string.'),
            }),
          },
        }),
      },
    ],
  },
};

export function recipeOf(id: string): Recipe | undefined {
  return isRecipeId(id) ? RECIPES[id] : undefined;
}
