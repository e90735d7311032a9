import { useState } from 'preact/hooks';
// crypto.randomUUID exists in secure contexts only: a console served over plain http on a LAN host has none.
import { randomId } from '../../../shared/random-id.ts';

/**
 * The keys of the sends whose answer did not come, by the draft each went with: a retry of such a draft, even after
 * other edits, takes its key again, since it may have been accepted. The API answers a key sent again with the first
 * send's id whatever the message, so a draft not tried yet takes the key in the field if no other draft took it (a
 * fresh one, or one typed), else a new one, rather than being answered as another and dropped. An accepted draft's
 * key is retired: the same message sent again afterwards is another send.
 */
export function useIdempotencyKeys() {
  const [idempotencyKey, setIdempotencyKey] = useState<string>(() => randomId());
  const [keysTried, setKeysTried] = useState<ReadonlyMap<string, string>>(new Map());
  return {
    idempotencyKey,
    setIdempotencyKey,
    /** The key to send the draft with, remembered for a retry until its send is accepted. */
    keyFor(draft: string): string {
      const fieldKeyTaken = [...keysTried.values()].includes(idempotencyKey);
      const key = keysTried.get(draft) ?? (fieldKeyTaken ? randomId() : idempotencyKey);
      setIdempotencyKey(key);
      setKeysTried((tried) => new Map(tried).set(draft, key));
      return key;
    },
    /** The next message is another send; a retry of this one (same key) would answer the same id. */
    accepted(draft: string): void {
      setIdempotencyKey(randomId());
      setKeysTried((tried) => {
        const pending = new Map(tried);
        pending.delete(draft);
        return pending;
      });
    },
  };
}
