import { type FieldRule, nameRule } from '../../field-errors.ts';

/** The part of a condition an API path names, as its sentence starts. */
const conditionPart = (path: string) =>
  path.includes('/count')
    ? 'The number of times'
    : (Object.entries({
        '/key': 'The tag',
        '/tag': 'The tag',
        '/event': 'The event type',
        '/value': 'The value',
        '/op': 'The operator',
      }).find(([end]) => path.endsWith(end))?.[1] ?? 'This condition');

/** Where the API's errors about a segment go: its name, each of its `count` conditions, or the top. */
export const errorRules = (count: number): FieldRule<string>[] => [
  nameRule('name'),
  ...Array.from({ length: count }, (_, index) => ({
    path: `/conditions/${index}`,
    field: `condition-${index}`,
    sentence: (message: string, path: string) => `${conditionPart(path)} ${message}.`,
  })),
  { path: '/conditions', sentence: 'Add from 1 to 20 conditions.' },
];
