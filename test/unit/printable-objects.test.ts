import { describe, expect, it } from 'vitest';
import { parseContent, renderContent } from '../../src/rendering/message-content.ts';
import { personalizationScope } from '../../src/rendering/personalization-scope.ts';

const render = (body: string, tags: Record<string, unknown>, data: Record<string, string> = {}) =>
  renderContent(
    parseContent({ title: null, body, url: null, imageUrl: null }),
    personalizationScope({ deviceId: 'd', tags }, data, { type: 'e', data: { list: [{ toString: 'x' }] } }),
  ).body;

describe('objects of a Liquid scope holding keys named like Object.prototype members', () => {
  it('print as any object does, with every key a value Liquid reads, __proto__ included', () => {
    const tags = JSON.parse('{"toString": "t", "valueOf": 2, "__proto__": "p"}') as Record<string, unknown>;
    expect(render('{{ device.tags }}|{{ device.tags.toString }}|{{ device.tags.valueOf }}', tags)).toBe(
      '[object Object]|t|2',
    );
    expect(render('{{ device.tags["__proto__"] }}|{{ device.tags | json }}', tags)).toBe(
      'p|{"toString":"t","valueOf":2,"__proto__":"p"}',
    );
    expect(render('{{ entry_event.data.list.first.toString }} {{ entry_event.data.list }}', {})).toBe(
      'x [object Object]',
    );
  });

  it('leave the scope it was given unchanged', () => {
    const tags = { toString: 't' };
    render('{{ device.tags }}', tags);
    expect(Object.getPrototypeOf(tags)).toBe(Object.prototype);
  });
});
