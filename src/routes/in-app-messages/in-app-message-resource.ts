import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { registerResourceRoutes } from '../resource-routes.ts';
import { InAppMessageBody, InAppMessageView } from '../../schemas/in-app-message.ts';
import { InAppMessageStore, toInAppMessageView } from '../../in-app/in-app-message-store.ts';
import { inAppMessageErrors } from '../../in-app/in-app-message-rules.ts';
import { inAppStats } from '../../in-app/in-app-stats.ts';

/** CONTRACTS §16: the server API of in-app messages, the read of one with its stats. */
export function registerInAppMessages(app: App, context: AppContext): void {
  registerResourceRoutes(app, {
    collection: 'in-app-messages',
    noun: 'in-app message',
    Body: InAppMessageBody,
    View: InAppMessageView,
    store: new InAppMessageStore(context),
    toView: toInAppMessageView,
    detailView: async (projectId, stored) => ({
      ...toInAppMessageView(stored),
      stats: await inAppStats(context.models, projectId, stored._id),
    }),
    pastSchemaErrors: inAppMessageErrors,
    summaries: {
      create: 'Create an in-app message: a modal or banner the SDK shows inside the site or app when its trigger fires',
      description:
        "Title and body are Liquid with the device's variables ({{ device.tags.x }}). The read of one adds stats: the distinct devices that reported @iam_displayed, @iam_clicked and @iam_closed for it.",
      replace: 'Replace an in-app message; devices see the new version at their next fetch',
      delete: 'Delete an in-app message; devices stop being offered it at their next fetch',
    },
  });
}
