import { useEffect } from 'preact/hooks';
import type { NotificationView } from '../../../../src/schemas/notification.ts';
import { api } from '../../api.ts';
import type { InlineContent } from './content-fields.tsx';

/**
 * `#/send/again/{id}`: the send screen opens with that notification's title, body, URL and image, as it was sent
 * (its Liquid unrendered), for another audience or another time.
 */
export function useSendAgain(base: string, path: string[], fill: (content: InlineContent) => void): void {
  const [what, id] = path;
  useEffect(() => {
    if (what !== 'again' || id === undefined) return;
    void api<NotificationView>('GET', `${base}/notifications/${encodeURIComponent(id)}`).then(
      (sent) => fill({ title: sent.title ?? '', body: sent.body, url: sent.url ?? '', imageUrl: sent.imageUrl ?? '' }),
      () => undefined,
    );
  }, [base, what, id]);
}
