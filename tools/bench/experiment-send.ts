/** The bench's message split into two variants of the same length, tested on `testPercent` of the audience. */
export function experimentMessage(content: { title: string; body: string }, testPercent: number) {
  return {
    variants: [
      { name: 'a', ...content },
      { name: 'b', ...content, title: content.title.replace('Hello', 'Hi there') },
    ],
    experiment: { testPercent, metric: 'clicked', decideAfterMinutes: 60, winner: 'manual' },
  };
}

type Api = <T>(path: string, body?: unknown) => Promise<T>;

interface ExperimentView {
  stats: { targeted: number; sent: number; failed: number; unsubscribed: number };
  experiment: { status: string };
}

/**
 * Picks variant b by hand (POST .../winner) once the test is out: its fan-out has queued devices and every one of them
 * has its outcome. Polled by the bench's wait loop; once picked it does nothing.
 */
export function winnerPicker(api: Api, notificationId: string) {
  let picked = false;
  return {
    async pickOnceTested(): Promise<void> {
      if (picked) return;
      const view = await api<ExperimentView>(`/notifications/${notificationId}`);
      const { targeted, sent, failed, unsubscribed } = view.stats;
      if (view.experiment.status !== 'testing' || targeted === 0 || sent + failed + unsubscribed < targeted) return;
      await api(`/notifications/${notificationId}/winner`, { variant: 'b' });
      picked = true;
    },
  };
}
