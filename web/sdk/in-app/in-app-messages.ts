import type { ApiClient } from '../api-client.ts';
import type { InAppButton, InAppMessage, InAppMessageHandler } from '../types.ts';
import { readState, writeState } from '../storage.ts';
import { randomId } from '../../shared/random-id.ts';

type Renderer = typeof import('./renderer.ts');

const dayMs = 86_400_000;

export interface InAppDevice {
  client: ApiClient;
  baseUrl: string;
  projectId: string;
  devicePath: string;
}

/** The frequency rule of CONTRACTS §16, kept here too for the showings the service has not stored yet. */
function allowed(message: InAppMessage, shownAt: number | undefined): boolean {
  const { frequency } = message;
  if (shownAt === undefined || frequency === 'always') return true;
  if (frequency === 'once') return false;
  return Date.now() - shownAt >= frequency.everyDays * dayMs;
}

/**
 * The in-app messages of one device: fetched at initialize and after setUserId/setTags, shown one at a time when a
 * trigger fires (an event tracked, or a session's start), each reported as @iam_displayed, @iam_clicked (buttonId)
 * and @iam_closed with its id. The renderer is a chunk of its own, loaded from the ingress only when one is shown.
 */
export class InAppMessages {
  private messages: InAppMessage[] = [];
  private fetched: Promise<void> = Promise.resolve();
  private showing = false;
  private renderer: Promise<Renderer> | undefined;
  handler: InAppMessageHandler | null = null;
  private readonly device: InAppDevice;
  private readonly shownKey: string;

  constructor(device: InAppDevice) {
    this.device = device;
    this.shownKey = `inAppShown:${device.projectId}`;
  }

  refresh(): Promise<void> {
    this.fetched = this.device.client
      .call<InAppMessage[]>({ method: 'GET', path: `${this.device.devicePath}/in-app-messages` })
      .then((messages) => {
        this.messages = messages;
      })
      .catch(() => undefined);
    return this.fetched;
  }

  /** After the latest fetch: the first message (highest priority) this trigger shows, if nothing is shown now. */
  async trigger(matches: (trigger: InAppMessage['trigger']) => boolean): Promise<void> {
    await this.fetched;
    if (this.showing) return;
    const shown = (await readState<Record<string, number>>(this.shownKey)) ?? {};
    const message = this.messages.find(
      (candidate) => matches(candidate.trigger) && allowed(candidate, shown[candidate.id]),
    );
    if (!message || this.showing) return;
    this.showing = true;
    try {
      await this.show(message, shown);
    } catch {
      this.showing = false;
    }
  }

  private report(type: string, data: Record<string, string>, beacon = false): void {
    const call = {
      method: 'POST',
      path: `${this.device.devicePath}/events`,
      body: { type, data },
      headers: { 'idempotency-key': randomId() },
    } as const;
    const sent = beacon ? this.device.client.sendNow(call) : this.device.client.call(call);
    sent.catch(() => undefined);
  }

  private async show(message: InAppMessage, shown: Record<string, number>): Promise<void> {
    const url = `${this.device.baseUrl.replace(/\/+$/, '')}/sdk/in-app.js`;
    this.renderer ??= import(/* @vite-ignore */ url) as Promise<Renderer>;
    const { showInAppMessage } = await this.renderer;
    const inAppMessageId = message.id;
    const host = document.createElement('push-engine-message');
    document.body.append(host);
    let view: { remove(): void } | undefined;
    const done = () => {
      view?.remove();
      this.showing = false;
    };
    const dismiss = () => {
      this.report('@iam_closed', { inAppMessageId });
      done();
    };
    const onButton = (button: InAppButton) => {
      this.report('@iam_clicked', { inAppMessageId, buttonId: button.id }, button.action === 'url');
      if (this.handler?.({ message, button }) === true) return done();
      if (button.action === 'close') return dismiss();
      done();
      if (button.url) location.assign(button.url);
    };
    view = showInAppMessage(host, message, { onButton, onDismiss: dismiss });
    this.report('@iam_displayed', { inAppMessageId });
    if (message.frequency !== 'always') await writeState(this.shownKey, { ...shown, [inAppMessageId]: Date.now() });
  }
}
