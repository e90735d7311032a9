import type { ApiFailure } from '../../api.ts';

/** The words a marketer sees for a field the API names in a step, beside the label the builder gives it. */
const fieldWords: Record<string, string> = {
  id: 'Step name',
  type: 'Step type',
  next: 'Then go to',
  seconds: 'Wait for',
  untilLocalTime: 'Wait until',
  event: 'Event',
  where: 'Data condition',
  field: 'Data field',
  op: 'Operator',
  value: 'Value',
  sameAs: 'Same values as the entry event',
  timeoutSeconds: 'Wait at most',
  onEvent: 'If the event happens, go to',
  onTimeout: 'If it does not happen, go to',
  match: 'Match',
  conditions: 'Condition',
  onTrue: 'If yes, go to',
  onFalse: 'If no, go to',
  paths: 'Path',
  tags: 'Tag',
  templateId: 'Template',
  title: 'Title',
  body: 'Body',
  url: 'URL',
  imageUrl: 'Image URL',
  buttons: 'Button',
  localizations: 'Language',
  ttl: 'TTL',
  priority: 'Priority',
  collapseId: 'Collapse id',
  badge: 'Badge',
  sound: 'Sound',
  platforms: 'Platforms',
  data: 'Data',
  localTime: 'At a local time',
  throttlePerMinute: 'At most pushes per minute',
};

/** One error placed on a step: the field it is about (its first part of the path), and the sentence to show. */
export interface StepError {
  field: string;
  /** The path's parts past the field: `['0', 'value']` for `/where/0/value`. */
  within: string[];
  sentence: string;
}

/** "/paths/1/next" → "Path 2, Then go to"; numbers are counted from one, as the builder shows them. */
function fieldSentence(parts: string[], message: string, whole = 'This step'): StepError {
  const words = parts.map((part, at) =>
    /^\d+$/.test(part)
      ? String(Number(part) + 1)
      : at === 0
        ? (fieldWords[part] ?? part)
        : (fieldWords[part] ?? part).toLowerCase(),
  );
  return {
    field: parts[0] ?? '',
    within: parts.slice(1),
    sentence: words.length === 0 ? `${whole} ${message}` : `${words.join(' ')}: ${message}`,
  };
}

export type JourneyField = 'name' | 'status' | 'audience' | 'reentry';

export interface PlacedErrors {
  steps: Map<number, StepError[]>;
  /** On the entry's event, or its data conditions. */
  entry: StepError[];
  exit: Map<number, StepError[]>;
  fields: Partial<Record<JourneyField, string>>;
  /** What no step or field holds (the list of steps as a whole, a failure that names no field). */
  rest: ApiFailure | undefined;
}

/** The API's 400 placed on the steps and fields it names (`/steps/3/onTimeout` on the fourth step). */
export function placeJourneyErrors(error: ApiFailure | undefined): PlacedErrors {
  const placed: PlacedErrors = { steps: new Map(), entry: [], exit: new Map(), fields: {}, rest: undefined };
  if (error === undefined) return placed;
  let unplaced = error.details.length === 0;
  for (const detail of error.details) {
    const [top = '', index, ...rest] = detail.path.split('/').slice(1);
    if (top === 'steps' && index !== undefined) {
      const list = placed.steps.get(Number(index)) ?? [];
      placed.steps.set(Number(index), [...list, fieldSentence(rest, detail.message)]);
    } else if (top === 'exit' && index !== undefined) {
      const list = placed.exit.get(Number(index)) ?? [];
      placed.exit.set(Number(index), [...list, fieldSentence(rest, detail.message, 'The rule')]);
    } else if (top === 'entry')
      placed.entry.push(
        fieldSentence(
          [index, ...rest].filter((part) => part !== undefined),
          detail.message,
          'The entry',
        ),
      );
    else if (['name', 'status', 'audience', 'reentry'].includes(top))
      placed.fields[top as JourneyField] = detail.message;
    else unplaced = true;
  }
  // The route names a step that fits no type as a whole beside the field that keeps it from fitting its own: the field
  // says what to change.
  for (const [index, errors] of placed.steps)
    if (errors.some((one) => one.field !== ''))
      placed.steps.set(
        index,
        errors.filter((one) => one.field !== ''),
      );
  placed.rest = unplaced ? error : undefined;
  return placed;
}
