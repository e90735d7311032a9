import type { InAppButton, InAppMessage } from '../types.ts';
import { inAppCss } from './styles.ts';

export interface InAppCallbacks {
  /** A button was clicked; the caller decides what follows. */
  onButton(button: InAppButton): void;
  /** Closed by the close button or Escape. */
  onDismiss(): void;
}

export interface ShownInAppMessage {
  /** Takes the message away and gives focus back to where it was. */
  remove(): void;
}

let sheet: CSSStyleSheet | undefined;

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  // Always as text, never as markup: what a message says cannot become elements or run script in the site.
  if (text !== undefined) node.textContent = text;
  return node;
}

let shownCount = 0;

function dialogOf(message: InAppMessage, callbacks: InAppCallbacks): HTMLElement {
  const dialog = element('div', 'dialog');
  const id = `pe-iam-${++shownCount}`;
  dialog.setAttribute('role', 'dialog');
  dialog.tabIndex = -1;
  if (message.layout === 'modal') dialog.setAttribute('aria-modal', 'true');
  if (message.imageUrl) {
    const image = element('img', 'image');
    image.src = message.imageUrl;
    image.alt = '';
    dialog.append(image);
  }
  const text = element('div', 'text');
  if (message.title) {
    const title = element('h2', 'title', message.title);
    title.id = `${id}-title`;
    text.append(title);
    dialog.setAttribute('aria-labelledby', title.id);
  } else {
    dialog.setAttribute('aria-label', message.body.trim().slice(0, 120) || 'Message');
  }
  const body = element('p', 'body', message.body);
  body.id = `${id}-body`;
  dialog.setAttribute('aria-describedby', body.id);
  text.append(body);
  dialog.append(text);
  if (message.buttons.length > 0) {
    const row = element('div', 'buttons');
    message.buttons.forEach((button, index) => {
      const node = element('button', index === 0 ? 'primary' : 'secondary', button.text);
      node.type = 'button';
      node.addEventListener('click', () => callbacks.onButton(button));
      row.append(node);
    });
    dialog.append(row);
  }
  const close = element('button', 'close', '×');
  close.type = 'button';
  close.setAttribute('aria-label', 'Close');
  close.addEventListener('click', () => callbacks.onDismiss());
  dialog.append(close);
  return dialog;
}

/** Tab stays inside a modal: from its last control to its first and back. */
function trapFocus(root: ShadowRoot, dialog: HTMLElement, event: KeyboardEvent): void {
  const controls = [...dialog.querySelectorAll('button')];
  const first = controls[0];
  const last = controls.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && (root.activeElement === first || root.activeElement === dialog)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && root.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * Draws the message inside a shadow root of `host`, so the site's styles cannot reach in (open, so that assistive
 * tools and audits read it as the page's), and as text only. An accessible dialog: labelled by its title, described
 * by its body, focus moved to its first button and given back when it goes, Escape closes it. `preview` draws it in place (the console) rather than over the page.
 */
export function showInAppMessage(
  host: HTMLElement,
  message: InAppMessage,
  callbacks: InAppCallbacks,
  preview = false,
): ShownInAppMessage {
  const root = host.attachShadow({ mode: 'open' });
  if ('adoptedStyleSheets' in root) {
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(inAppCss);
    }
    root.adoptedStyleSheets = [sheet];
  }
  const dialog = dialogOf(message, callbacks);
  // A preview sits among the console's controls: it must not hide them from assistive technology.
  if (preview) dialog.removeAttribute('aria-modal');
  const frame = element('div', `${message.layout === 'modal' ? 'modal' : 'banner'}${preview ? ' preview' : ''}`);
  if (message.layout === 'modal') {
    const backdrop = element('div', 'backdrop');
    backdrop.append(dialog);
    frame.append(backdrop);
  } else {
    frame.append(dialog);
  }
  root.append(frame);
  const previous = document.activeElement as HTMLElement | null;
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') callbacks.onDismiss();
    else if (event.key === 'Tab' && message.layout === 'modal') trapFocus(root, dialog, event);
  };
  // On the document: Escape closes the message wherever the focus went meanwhile.
  if (!preview) document.addEventListener('keydown', onKey);
  if (!preview) (dialog.querySelector('button') ?? dialog).focus();
  return {
    remove() {
      document.removeEventListener('keydown', onKey);
      host.remove();
      if (!preview) previous?.focus?.();
    },
  };
}
