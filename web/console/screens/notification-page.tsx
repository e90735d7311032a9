import { useEffect, useRef, useState } from 'preact/hooks';
import type { NotificationView } from '../../../src/schemas/notification.ts';
import type { DeliverySummary } from '../../../src/schemas/delivery-log.ts';
import { api } from '../api.ts';
import { useInterval, useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { ApiIds, Section } from '../layout.tsx';
import { href } from '../route.ts';
import { LoadedView, formatTime } from '../ui.tsx';
import { FunnelChart } from './notification/funnel-chart.tsx';
import { FailureReasons, Platforms } from './notification/breakdown.tsx';
import { DeliveryLog, type OutcomeFilter } from './notification/delivery-log.tsx';
import { WaitingPushes } from './notification/waiting-pushes.tsx';
import { TemplateName } from './notification/template-name.tsx';
import { useRenderedContent } from './notification/rendered-content.ts';
import { ExperimentComparison } from './notification/experiment.tsx';

/** How often the page reads its send again while the send is in progress. */
const refreshMs = 2000;

const inProgress = (view: NotificationView | undefined) => view?.status === 'queued' || view?.status === 'sending';

/**
 * One notification at its own address: its content as a device read it, its funnel, its platforms, why devices got
 * nothing, and its delivery log; read again every two seconds while its send is in progress.
 */
export function NotificationPage({ id }: { id: string }) {
  const { base } = useProject();
  const path = `${base}/notifications/${encodeURIComponent(id)}`;
  const notification = useLoad(() => api<NotificationView>('GET', path), [path]);
  const summary = useLoad(() => api<DeliverySummary>('GET', `${path}/delivery-summary`), [path]);
  const [round, setRound] = useState(0);
  const [outcome, setOutcome] = useState<OutcomeFilter>('all');
  const moving = inProgress(notification.data);
  useInterval(() => {
    if (!moving) return;
    notification.reload();
    summary.reload();
    setRound((value) => value + 1);
  }, refreshMs);
  // The breakdown and the log read beside the answer that said the send ended may predate its last outcomes: once the
  // send ends under the page's eyes, they are read once more.
  const wasMoving = useRef(false);
  useEffect(() => {
    if (wasMoving.current && !moving) {
      summary.reload();
      setRound((value) => value + 1);
    }
    wasMoving.current = moving;
  }, [moving, summary.reload]);
  const rendered = useRenderedContent(path, base, notification.data);
  return (
    <article data-notification-page={id}>
      <p class="actions">
        <a href={href('notifications')}>Back to the notifications</a>
        <a href={href('send', 'again', id)}>Send again</a>
      </p>
      <LoadedView loaded={notification}>
        {(view) => {
          const content = rendered.data ?? view;
          return (
            <>
              {/* An experiment's content is its variants'. */}
              <h2>{content.title ?? (content.body || `An experiment of ${view.variants?.length} variants`)}</h2>
              <p>
                <span class={`status status-${view.status}`} data-testid="status">
                  {view.status}
                </span>{' '}
                <span class="muted">created {formatTime(view.createdAt)}</span>
                {moving && <span class="muted"> · updates by itself while it sends</span>}
              </p>
              <dl class="facts">
                {content.title !== null && (
                  <>
                    <dt>Title</dt>
                    <dd>{content.title}</dd>
                  </>
                )}
                {content.body !== '' && (
                  <>
                    <dt>Message</dt>
                    <dd>{content.body}</dd>
                  </>
                )}
                {view.templateId !== undefined && (
                  <>
                    <dt>Template</dt>
                    <dd data-testid="template-name">
                      <TemplateName base={base} templateId={view.templateId} />
                    </dd>
                  </>
                )}
                {content.url !== null && (
                  <>
                    <dt>Opens</dt>
                    <dd class="url">{content.url}</dd>
                  </>
                )}
              </dl>
              <Section title="Funnel">
                <FunnelChart stats={view.stats} />
              </Section>
              {view.variants && view.experiment && (
                <ExperimentComparison
                  path={path}
                  variants={view.variants}
                  experiment={view.experiment}
                  onPicked={notification.reload}
                />
              )}
              <ApiIds
                ids={[
                  ['Notification id', view.id],
                  ...(view.templateId ? [['Template id', view.templateId] as const] : []),
                ]}
              />
              <WaitingPushes
                view={view}
                onShow={() => {
                  setOutcome('waiting');
                  document.getElementById('select-outcome')?.focus();
                }}
              />
            </>
          );
        }}
      </LoadedView>
      <LoadedView loaded={summary}>
        {(data) => (
          <div class="columns">
            <Platforms summary={data} />
            <FailureReasons summary={data} />
          </div>
        )}
      </LoadedView>
      <DeliveryLog
        path={`${path}/deliveries`}
        notificationId={id}
        round={round}
        outcome={outcome}
        setOutcome={setOutcome}
      />
    </article>
  );
}
