import type { CallInput, CallResult, OperationCalls } from './operation-types.ts';

/** The list operations that page, and the query field that continues a page after its last item. */
type Paged = 'listNotifications' | 'getNotificationHistory' | 'listDeliveries' | 'listEvents' | 'listDevices';
type Item<K extends Paged> = CallResult<K> extends Array<infer T> ? T : never;
type Pager<K extends Paged> =
  object extends CallInput<K>
    ? (input?: CallInput<K>) => AsyncIterableIterator<Item<K>>
    : (input: CallInput<K>) => AsyncIterableIterator<Item<K>>;

const defaultPageSize = 100;

/**
 * Every item of a list, page after page: each page continues from the last item of the one before, until a page comes
 * back shorter than the limit asked for (a page may be longer, holding its last millisecond whole).
 */
async function* eachItem<K extends Paged>(
  list: (input: CallInput<K>) => Promise<CallResult<K>>,
  input: CallInput<K> = {} as CallInput<K>,
  continueAfter: (last: Item<K>) => Record<string, string>,
): AsyncIterableIterator<Item<K>> {
  const query = { ...(input as { query?: Record<string, unknown> }).query };
  const limit = typeof query.limit === 'number' ? query.limit : defaultPageSize;
  for (;;) {
    const page = (await list({ ...input, query: { ...query, limit } } as CallInput<K>)) as Item<K>[];
    yield* page;
    const last = page.at(-1);
    if (last === undefined || page.length < limit) return;
    Object.assign(query, continueAfter(last));
  }
}

export interface PagedLists {
  /** Notifications, newest first. */
  allNotifications: Pager<'listNotifications'>;
  /** A device's notification history, newest first. */
  allNotificationHistory: Pager<'getNotificationHistory'>;
  /** A notification's delivery log, in device id order. */
  allDeliveries: Pager<'listDeliveries'>;
  /** Recent events, newest first. */
  allEvents: Pager<'listEvents'>;
  /** Devices by user or tag, in id order. */
  allDevices: Pager<'listDevices'>;
}

export function pagedLists(calls: OperationCalls): PagedLists {
  return {
    allNotifications: (input) => eachItem(calls.listNotifications, input, (last) => ({ before: last.id })),
    allNotificationHistory: (input) =>
      eachItem(calls.getNotificationHistory, input, (last) => ({ before: last.sentAt })),
    allDeliveries: (input) => eachItem(calls.listDeliveries, input, (last) => ({ after: last.deviceId })),
    allEvents: (input) => eachItem(calls.listEvents, input, (last) => ({ before: last.id })),
    allDevices: (input) => eachItem(calls.listDevices, input, (last) => ({ after: last.id })),
  };
}
