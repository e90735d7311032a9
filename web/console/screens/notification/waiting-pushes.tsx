import type { NotificationView } from '../../../../src/schemas/notification.ts';
import { Section } from '../../layout.tsx';
import { formatTime } from '../../ui.tsx';

/** How many pushes still wait (local time, quiet hours, the send's pace), when the first is due, and a way to see why. */
export function WaitingPushes({ view, onShow }: { view: NotificationView; onShow(): void }) {
  const waiting = view.stats.waiting ?? 0;
  if (waiting === 0) return null;
  return (
    <Section title="Waiting" testId="waiting-pushes">
      <p>
        {waiting === 1 ? '1 push waits' : `${waiting.toLocaleString()} pushes wait`}
        {view.waitingUntil && <>; the next is due {formatTime(view.waitingUntil)}</>}.
      </p>
      <button type="button" class="secondary" onClick={onShow}>
        Show the waiting pushes and why they wait
      </button>
    </Section>
  );
}
