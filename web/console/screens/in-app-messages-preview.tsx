import { useEffect, useRef } from 'preact/hooks';
import type { InAppMessage } from '../../sdk/types.ts';
import { showInAppMessage } from '../../sdk/in-app/renderer.ts';

/**
 * The message as the web SDK draws it, by the SDK's own renderer, in place: its buttons do nothing here. A new host
 * each time, since an element takes one shadow root for good.
 */
export function InAppPreview({ message }: { message: InAppMessage }) {
  const frame = useRef<HTMLDivElement>(null);
  const drawn = JSON.stringify(message);
  useEffect(() => {
    const container = frame.current;
    if (!container) return;
    const host = document.createElement('div');
    container.replaceChildren(host);
    const shown = showInAppMessage(host, JSON.parse(drawn) as InAppMessage, { onButton() {}, onDismiss() {} }, true);
    return () => shown.remove();
  }, [drawn]);
  return <div class="in-app-preview" data-testid="in-app-preview" ref={frame} />;
}
