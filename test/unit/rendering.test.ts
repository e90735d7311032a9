import { describe, expect, it } from 'vitest';
import { parseContent, renderContent } from '../../src/rendering/message-content.ts';
import { referencedDeviceTags } from '../../src/rendering/referenced-tags.ts';
import { personalizationScope } from '../../src/rendering/personalization-scope.ts';
import { threadCpuMicros } from '../../src/rendering/thread-cpu.ts';

const content = (body: string, title: string | null = null) => parseContent({ title, body, url: null, imageUrl: null });

describe('Liquid rendering limits', () => {
  it.each([
    ['a huge range', '{% for i in (1..100000000) %}{{ i }}{% endfor %}'],
    ['string doubling', '{% assign s = "xx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s }}'],
    ['nested loops', '{% for a in (1..3000) %}{% for b in (1..3000) %}.{% endfor %}{% endfor %}'],
    [
      'doubling by capture',
      '{% capture s %}x{% endcapture %}{% for i in (1..28) %}{% capture s %}{{ s }}{{ s }}{% endcapture %}{% endfor %}{{ s }}',
    ],
    [
      // Only its size is written out, so nothing but the capture itself can count the string it builds.
      'doubling by capture, read in place',
      '{% capture s %}x{% endcapture %}{% for i in (1..24) %}{% capture s %}{{ s }}{{ s }}{% endcapture %}{% endfor %}{{ s | size }}',
    ],
    [
      'a capture output many times',
      `{% capture s %}{% for i in (1..1000) %}xxxxxxxxxx{% endfor %}{% endcapture %}${'{{ s }}'.repeat(200)}`,
    ],
  ])('stops %s quickly instead of stalling the worker', (_name, body) => {
    // Processor time, not the clock's: a render that waits for a core on a loaded machine stalls no worker.
    const started = threadCpuMicros();
    expect(() => renderContent(content(body), personalizationScope({ deviceId: 'd' }, {}))).toThrow();
    expect(threadCpuMicros() - started).toBeLessThan(1_000_000);
  });

  it('does not fail an innocent message whose render a stall pushed past the time limit once', () => {
    let stalls = 1;
    const data = {
      get name() {
        // A garbage collection or a busy core, as seen by the render-time limit.
        const until = performance.now() + (stalls-- > 0 ? 80 : 0);
        while (performance.now() < until);
        return 'Ada';
      },
    };
    expect(renderContent(content('Hello {{ data.name }}, welcome {{ data.name }}!'), { data }).body).toBe(
      'Hello Ada, welcome Ada!',
    );
  });

  it('does not fail a message whose render waits for a core past the time limit every time: the limit is processor time', () => {
    const data = {
      get name() {
        // A loaded machine: the thread waits for a core, using none of the processor meanwhile.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 80);
        return 'Ada';
      },
    };
    expect(renderContent(content('Hello {{ data.name }}, welcome {{ data.name }}!'), { data }).body).toBe(
      'Hello Ada, welcome Ada!',
    );
  });

  it.each(['where_exp', 'reject_exp', 'group_by_exp', 'has_exp', 'find_exp', 'find_index_exp'])(
    'refuses %s when a message is parsed: its expression, a string read only as it renders, escaped the time limit',
    (name) => {
      // Nested, such a filter cost the square of the range in one output: 18 s for a range of 2,000 in a worker.
      const body = `{% assign a = (1..2000) %}{{ a | ${name}: "i", "a | ${name}: 'j', 'j < 0'" }}`;
      expect(() => content(body)).toThrow(`undefined filter: ${name}`);
    },
  );

  it('reads no file: include and render find nothing', () => {
    expect(() => renderContent(content('{% include "/etc/passwd" %}'), {})).toThrow();
    expect(() => renderContent(content('{% render "../package.json" %}'), {})).toThrow();
  });

  it('refuses templates over the parse limit', () => {
    expect(() => content('x'.repeat(70 * 1024))).toThrow();
  });

  it('renders the CONTRACTS §6 variables', () => {
    const scope = personalizationScope(
      { deviceId: 'd1', userId: 'u1', tags: { plan: 'pro' } },
      { code: 'X' },
      { type: 'purchase', data: { amount: 5 } },
    );
    const rendered = renderContent(
      content(
        '{{ device.id }} {{ device.userId }} {{ device.tags.plan }} {{ data.code }} {{ entry_event.type }} {{ entry_event.data.amount }} {{ data.none | default: "-" }}',
      ),
      scope,
    );
    expect(rendered.body).toBe('d1 u1 pro X purchase 5 -');
  });

  it('leaves out a title, url or imageUrl that renders blank, as if not given (an empty link went out to open)', () => {
    const parsed = parseContent({
      title: '{{ data.title }}',
      body: 'b',
      url: ' {{ device.tags.link }} ',
      imageUrl: '{{ data.image }}',
    });
    expect(renderContent(parsed, personalizationScope({ deviceId: 'd1', tags: {} }, {}))).toEqual({
      title: null,
      body: 'b',
      url: null,
      imageUrl: null,
    });
    const scope = personalizationScope(
      { deviceId: 'd1', tags: { link: 'https://x.example' } },
      { title: 'T', image: 'i' },
    );
    expect(renderContent(parsed, scope)).toEqual({ title: 'T', body: 'b', url: ' https://x.example ', imageUrl: 'i' });
  });
});

describe('referenced device tags', () => {
  it('names the tags a message reads, so a batch carries only those', () => {
    expect(
      referencedDeviceTags(
        content('Hi {{ device.tags.name }} {{ device.tags["first name"] }}', '{{ device.id }} {{ data.x }}'),
      ),
    ).toEqual(['name', 'first name']);
    expect(referencedDeviceTags(content('no variables'))).toEqual([]);
  });

  it('asks for every tag when a template reaches them as a whole or by a computed name', () => {
    expect(referencedDeviceTags(content('{% for t in device.tags %}{{ t }}{% endfor %}'))).toBe('all');
    expect(referencedDeviceTags(content('{{ device.tags[data.key] }}'))).toBe('all');
    expect(referencedDeviceTags(content('{% assign d = device %}{{ d.tags.plan }}'))).toBe('all');
  });
});
