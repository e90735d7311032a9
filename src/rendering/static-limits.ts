import { TypeGuards, Value, type Template, type Token } from 'liquidjs';
import { childTemplates, type ParsedTemplate } from './liquid.ts';

/** Longer than any object a message reads (`device.tags.plan` is three); each segment read costs a step per item. */
export const maxPathSegments = 16;
/** Wider than any loop a push needs; every item of a range may cost a step per filter and per path segment. */
export const maxRangeSize = 1000;

/** The filters whose string argument is a property path, read on every item of the array they filter. */
const pathFilters = new Set([
  'map',
  'sum',
  'sort',
  'sort_natural',
  'where',
  'reject',
  'group_by',
  'has',
  'find',
  'find_index',
]);

interface FilterLike {
  name: string;
  args: unknown[];
}

/**
 * What a message's Liquid may not write, checked when it is accepted so that most costly content is a 400 naming its
 * field before anything renders: a property path longer than maxPathSegments (read as a variable or as a filter's
 * path argument) and a range of more than maxRangeSize numbers written literally. What is computed as it renders (a
 * range up to a tag's value, a path captured from a loop) is left to the render bound. One message per problem kind.
 */
export function staticLimitProblems(template: ParsedTemplate): string[] {
  const problems = new Set<string>();
  const visitToken = (token: unknown): void => {
    if (TypeGuards.isRangeToken(token)) {
      const { lhs, rhs } = token;
      if (
        TypeGuards.isNumberToken(lhs) &&
        TypeGuards.isNumberToken(rhs) &&
        rhs.content - lhs.content + 1 > maxRangeSize
      )
        problems.add(`writes a range of ${rhs.content - lhs.content + 1} numbers; at most ${maxRangeSize} are allowed`);
      visitToken(lhs);
      visitToken(rhs);
    } else if (TypeGuards.isPropertyAccessToken(token)) {
      checkPath(token.props.length);
      for (const prop of token.props) visitToken(prop);
      visitToken(token.variable);
    } else if (TypeGuards.isFilteredValueToken(token)) {
      visitValue(token.initial.postfix, token.filters);
    }
  };
  const checkPath = (segments: number) => {
    if (segments > maxPathSegments)
      problems.add(`reads a property path of ${segments} segments; at most ${maxPathSegments} are allowed`);
  };
  const visitValue = (postfix: Token[], filters: FilterLike[]) => {
    for (const token of postfix) visitToken(token);
    for (const filter of filters)
      filter.args.forEach((arg, index) => {
        const value = Array.isArray(arg) ? arg[1] : arg;
        if (index === 0 && pathFilters.has(filter.name) && TypeGuards.isQuotedToken(value))
          checkPath(value.content.split('.').length);
        visitToken(value);
      });
  };
  const visitTemplate = (part: Template): void => {
    for (const argument of part.arguments?.() ?? []) {
      if (argument instanceof Value) visitValue(argument.initial.postfix, argument.filters);
      else visitToken(argument);
    }
    for (const child of childTemplates(part)) visitTemplate(child);
  };
  for (const part of template) visitTemplate(part);
  return [...problems];
}
