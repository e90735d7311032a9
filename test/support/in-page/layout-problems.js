/**
 * Runs in the page (a browser script, so it is plain JavaScript outside the server's type checks): what a reader would
 * see as broken. See layout-check.ts.
 */
(() => {
  const problems = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1)
    problems.push(`the page is ${root.scrollWidth} px wide in a ${root.clientWidth} px window`);
  const describe = (element) => `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 40)}"`;
  const hidden = (element) =>
    element.closest('.visually-hidden, details:not([open]) > :not(summary), [aria-hidden="true"]') !== null;
  const floating = (element) => {
    for (let at = element; at; at = at.parentElement) {
      const position = getComputedStyle(at).position;
      if (position === 'sticky' || position === 'fixed' || position === 'absolute') return true;
    }
    return false;
  };
  const ownText = (element) =>
    [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim() !== '');
  const drawn = [...document.querySelectorAll('main *, header *')].filter((element) => {
    if (hidden(element) || floating(element)) return false;
    const box = element.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) return false;
    return ownText(element) || element.matches('input, select, textarea, button, img, svg, meter');
  });
  for (const element of drawn) {
    const box = element.getBoundingClientRect();
    if (box.right > root.clientWidth + 1) problems.push(`${describe(element)} runs past the window's right edge`);
  }
  // An inline element split over lines is its fragments, not the box around them all.
  const boxes = drawn.map((element) => ({ element, rects: [...element.getClientRects()] }));
  const overlap = (a, b) =>
    Math.min(a.right, b.right) - Math.max(a.left, b.left) > 2 &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 2;
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      if (a.element.contains(b.element) || b.element.contains(a.element)) continue;
      if (a.rects.some((rect) => b.rects.some((other) => overlap(rect, other))))
        problems.push(`${describe(a.element)} overlaps ${describe(b.element)}`);
    }
  // A table whose headers are hidden (a phone's cards) names each cell by its column's label, or the reader cannot
  // tell one number from another.
  for (const table of document.querySelectorAll('main table')) {
    const head = table.tHead;
    if (hidden(table) || !head || head.getBoundingClientRect().height > 2) continue;
    const labels = [...(head.rows[0]?.cells ?? [])].map((cell) => cell.textContent.trim());
    for (const row of table.tBodies[0]?.rows ?? [])
      [...row.cells].forEach((cell, index) => {
        if (labels[index] && getComputedStyle(cell, '::before').content === 'none')
          problems.push(`a cell of "${labels[index]}" in ${describe(table)} shows no label`);
      });
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || hidden(parent) || parent.closest('code:not(.name), .id, .url, script, style, svg')) continue;
    const text = node.textContent ?? '';
    // A name in code (an event type such as @first_session) is one word, its punctuation included.
    const words = parent.closest('code.name') ? /\S{2,}/gu : /[\p{L}\p{N}]{2,}/gu;
    for (const match of text.matchAll(words)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => rect.top));
      if (lines.size > 1) problems.push(`"${match[0]}" is broken across lines in ${describe(parent)}`);
    }
  }
  return [...new Set(problems)];
})();
