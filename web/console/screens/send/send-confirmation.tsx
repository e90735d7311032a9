import { useLayoutEffect, useRef } from 'preact/hooks';
import { href } from '../../route.ts';
import { formatTime } from '../../ui.tsx';

/**
 * The question before a send, with its audience's count. It takes the focus on its safe answer, as every confirmation
 * does: Enter or Escape there cancels; it is read out as it appears and as the count comes in.
 */
export function SendConfirmation({
  question,
  disabled,
  running,
  scheduled,
  onConfirm,
  onCancel,
}: {
  question: string;
  disabled: boolean;
  running: boolean;
  scheduled: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const cancelButton = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => cancelButton.current?.focus(), []);
  return (
    <fieldset class="confirm" onKeyDown={(event) => event.key === 'Escape' && onCancel()}>
      <legend class="visually-hidden">Confirm the send</legend>
      <p data-testid="send-confirmation" aria-live="polite">
        {question}
      </p>
      <button type="button" disabled={disabled} onClick={onConfirm}>
        {running ? 'Sending…' : scheduled ? 'Confirm schedule' : 'Confirm send'}
      </button>{' '}
      <button type="button" class="secondary" ref={cancelButton} onClick={onCancel}>
        Cancel
      </button>
    </fieldset>
  );
}

/** The send accepted, with a link to its own page. */
export function SentNotice({ id, sendAt }: { id: string; sendAt: string | null }) {
  return (
    <p role="status" class="notice">
      {sendAt === null ? 'Accepted' : `Scheduled for ${formatTime(sendAt)}`} as notification <code>{id}</code>.{' '}
      <a href={href('notifications', id)}>{sendAt === null ? 'Follow it' : 'Follow or cancel it'} on its page</a>.
    </p>
  );
}
