import { CaptureTag, Context, Liquid, TokenKind, type Template } from 'liquidjs';
import { threadCpuMicros } from './thread-cpu.ts';

const maxRenderedLength = 1024 * 1024;
const renderLimitMs = 50;

/**
 * One engine for every message. The limits bound what a hostile template can cost a worker: the size parsed, the
 * time one render may take and the memory its strings and ranges may allocate. `templates: {}` replaces the file
 * system, so include, render and layout find nothing to read.
 */
export const liquid = new Liquid({
  templates: {},
  strictFilters: true,
  ownPropertyOnly: true,
  parseLimit: 64 * 1024,
  renderLimit: renderLimitMs,
  memoryLimit: maxRenderedLength,
});

/**
 * liquidjs counts the strings its filters build against memoryLimit, but not what a capture holds: `{% capture s
 * %}{{ s }}{{ s }}{% endcapture %}` in a loop doubled a string to 268 million characters in 3 ms, which V8 keeps as a
 * rope until something reads it whole and then a worker runs out of heap. Each capture now counts what it holds.
 */
class CountedCaptureTag extends CaptureTag {
  override *render(ctx: Context): Generator<unknown, void, string> {
    yield* super.render(ctx);
    const captured = ctx.bottom()[this.variable as keyof object] as unknown;
    ctx.memoryLimit.use(typeof captured === 'string' ? captured.length : 0);
  }
}
liquid.registerTag('capture', CountedCaptureTag);

/**
 * Messages are self-contained: with no files to read, include, render and layout could only fail, and they failed late,
 * inside the send job's static analysis (which looks partials up), instead of as a 400 when the message was accepted.
 */
for (const name of ['include', 'render', 'layout']) {
  liquid.registerTag(name, {
    parse() {
      throw new Error(`{% ${name} %} is not available: a message cannot read other templates or files`);
    },
    render() {},
  });
}

/**
 * The *_exp filters evaluate a Liquid expression written in a string, which liquidjs parses only as it renders, per
 * item: an expression holding another such filter made one output cost the square of an array's length in one step,
 * past the render-time limit (which is checked between a template's parts only: a range of 2,000 froze a worker for
 * 18 s). Such an expression also escaped the checks made when a message is accepted (an unknown filter in it failed
 * every device) and the reading of the tags a message uses (a tag read only in it rendered as missing). `where`,
 * `reject`, `group_by`, `has`, `find` and `find_index` with a property do what messages need of them.
 */
for (const name of ['where_exp', 'reject_exp', 'group_by_exp', 'has_exp', 'find_exp', 'find_index_exp'])
  delete liquid.filters[name];

export type ParsedTemplate = Template[];

export function parseTemplate(text: string): ParsedTemplate {
  return liquid.parse(text);
}

/** The templates a tag holds (an if's branches, a loop's body), as Liquid's own static analysis lists them. */
export function childTemplates(template: Template): Template[] {
  const walk = template.children?.(false, true);
  if (walk === undefined) return [];
  let step = walk.next();
  while (!step.done) step = walk.next();
  return step.value;
}

const renderTimeExceeded = /template render limit exceeded/;
const engineLimitExceeded = /(template render|memory alloc) limit exceeded/;

/**
 * A render past one of the engine's limits (its time, its memory, the length written out): the content is too costly
 * to render, as one past the pool's time bound is, not a failure of one device's variables.
 */
export class RenderLimitError extends Error {}

/**
 * A garbage collection counts in the render-time limit, so it can push an innocent render past it. One second try
 * tells the two apart: a hostile template exceeds the limit every time.
 */
export function renderTemplate(template: ParsedTemplate, scope: object): string {
  const literal = literalText(template);
  if (literal !== null) return literal;
  const rendered = renderWithinTime(template, scope);
  // What a template writes out is not counted either ({{ s }} two hundred times); its length is known without reading it.
  if (rendered.length > maxRenderedLength)
    throw new RenderLimitError(`the rendered text is longer than ${maxRenderedLength} characters`);
  return rendered;
}

/** Each template's text when it holds no output and no tag, null otherwise: worked out once per parsed template. */
const literals = new WeakMap<ParsedTemplate, string | null>();

/**
 * A template of text alone renders as that text whatever the variables (a localized body without Liquid, a button's
 * plain url), so it is rendered once, not once per device.
 */
function literalText(template: ParsedTemplate): string | null {
  let literal = literals.get(template);
  if (literal === undefined) {
    literal = template.every((part) => part.token.kind === TokenKind.HTML) ? renderWithinTime(template, {}) : null;
    literals.set(template, literal);
  }
  return literal;
}

/**
 * liquidjs's render-time limit, counted in processor time: liquidjs reads the clock before each step, and once the clock
 * is past the limit the thread's own processor time is read, and the render stopped when it has used the limit again
 * from then on. A render that waited for a core (a loaded machine) is not stopped for the wait; a hostile one is
 * stopped after twice the limit on a quiet machine.
 */
class ProcessorTimeLimit {
  private readonly clockLimit = performance.now() + renderLimitMs;
  private cpuLimit = Number.POSITIVE_INFINITY;

  check(now: number): void {
    if (now <= this.clockLimit) return;
    const cpu = threadCpuMicros();
    if (this.cpuLimit === Number.POSITIVE_INFINITY) this.cpuLimit = cpu + renderLimitMs * 1000;
    else if (cpu > this.cpuLimit) throw new Error('template render limit exceeded');
  }
}

type RenderLimit = NonNullable<ConstructorParameters<typeof Context>[3]>['renderLimit'];

function renderOnce(template: ParsedTemplate, scope: object): string {
  const renderLimit = new ProcessorTimeLimit() as unknown as RenderLimit;
  return liquid.renderSync(template, new Context(scope, liquid.options, { sync: true }, { liquid, renderLimit }));
}

function renderWithinTime(template: ParsedTemplate, scope: object): string {
  try {
    return renderOnce(template, scope);
  } catch (error) {
    if (!(error instanceof Error && renderTimeExceeded.test(error.message))) throw asLimitError(error);
    try {
      return renderOnce(template, scope);
    } catch (again) {
      throw asLimitError(again);
    }
  }
}

function asLimitError(error: unknown): unknown {
  return error instanceof Error && engineLimitExceeded.test(error.message)
    ? new RenderLimitError(error.message)
    : error;
}
