import { describe, expect, it } from 'vitest';
import { contentSyntaxErrors } from '../../src/rendering/message-content.ts';

const path = (segments: number) => Array.from({ length: segments }, () => 'a').join('.');
const problems = (body: string) => contentSyntaxErrors({ body }).map((detail) => detail.message);

describe('static limits of Liquid checked when content is saved', () => {
  it.each([
    ['the probe reproduction', `{{ (1..4000) | has: "${path(2000)}" }}`, /range of 4000 numbers/],
    ['a long variable path', `{{ ${path(17)} }}`, /property path of 17 segments; at most 16/],
    ['a loop over a wide range', '{% for i in (1..100000000) %}{{ i }}{% endfor %}', /range of 100000000 numbers/],
    ['a wide range assigned', '{% assign r = (1..5000) %}{{ r | size }}', /range of 5000 numbers/],
    ['a wide range in a condition', '{% if (1..5000) contains 3 %}y{% endif %}', /range of 5000/],
    ['a long path argument of where', `{{ data.list | where: "${path(17)}", 3 }}`, /property path of 17 segments/],
    ['a long path argument of sort', `{{ data.list | sort: "${path(20)}" | first }}`, /property path of 20/],
    ['a wide range as a filter argument', '{{ data.list | concat: (1..2000) | size }}', /range of 2000/],
  ])('refuses %s, naming the field', (_name, body, message) => {
    expect(problems(body)).toContainEqual(expect.stringMatching(message));
    expect(contentSyntaxErrors({ body }).every((detail) => detail.path === '/body')).toBe(true);
  });

  it.each([
    ['tags and data', 'Hi {{ device.tags.name | default: "there" }}, {{ data.offer }}'],
    ['a loop of 1000', '{% for i in (1..1000) %}{{ i }}{% endfor %}'],
    ['a range up to a value', '{% for i in (1..data.count) %}*{% endfor %}'],
    ['a dotted string that is not a path', `{{ "x" | append: "${path(40)}" }}`],
    ['a path of 16 segments', `{{ data.list | map: "${path(16)}" }}`],
  ])('accepts %s', (_name, body) => {
    expect(problems(body)).toEqual([]);
  });
});
