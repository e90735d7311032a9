import type { DeliveryView } from '../../../../src/schemas/delivery-log.ts';
import type { NotificationView, RenderedContent } from '../../../../src/schemas/notification.ts';
import { api, query } from '../../api.ts';
import { useLoad } from '../../hooks.ts';

const hasLiquid = (text: string | null) => text?.includes('{') ?? false;

/**
 * The title and body as a device that got the push read them: Liquid rendered for the first device sent to, or with
 * device variables empty before any was; text without Liquid as it is.
 */
export function useRenderedContent(path: string, base: string, view: NotificationView | undefined) {
  const needsRendering = view !== undefined && (hasLiquid(view.title) || hasLiquid(view.body));
  return useLoad<RenderedContent | undefined>(
    !needsRendering
      ? null
      : async () => {
          const [sample] = await api<DeliveryView[]>(
            'GET',
            `${path}/deliveries${query({ outcome: 'sent', limit: 1 })}`,
          );
          return api<RenderedContent>('POST', `${base}/notifications/preview`, {
            body: {
              title: view.title ?? undefined,
              body: view.body,
              url: view.url ?? undefined,
              imageUrl: view.imageUrl ?? undefined,
              deviceId: sample?.deviceId,
            },
          });
        },
    [path, needsRendering],
  );
}
