import type { DeliverySummary } from '../../../../src/schemas/delivery-log.ts';
import { Section } from '../../layout.tsx';
import { deliveryOutcomes, inWords, outcomeWords, platformWords, reasonInWords } from '../../words.ts';

/** Each platform as a card of its outcomes, side by side on a laptop and stacked on a phone. */
export function Platforms({ summary }: { summary: DeliverySummary }) {
  return (
    <Section title="By platform" testId="platforms">
      {summary.byPlatform.length === 0 ? (
        <p class="empty">No device has an outcome yet.</p>
      ) : (
        <div class="platform-cards">
          {summary.byPlatform.map((row) => (
            <article key={row.platform} class="card" data-platform={row.platform}>
              <h3>{inWords(platformWords, row.platform)}</h3>
              <dl class="facts">
                {deliveryOutcomes
                  .filter((outcome) => outcome === 'sent' || row[outcome] > 0)
                  .map((outcome) => [
                    <dt key={`${outcome}-name`}>{outcomeWords[outcome]}</dt>,
                    <dd key={`${outcome}-value`}>{row[outcome].toLocaleString()}</dd>,
                  ])}
              </dl>
            </article>
          ))}
        </div>
      )}
    </Section>
  );
}

/** Why devices got no push, in plain words, most frequent first; the gateway's own reason under it. */
export function FailureReasons({ summary }: { summary: DeliverySummary }) {
  const reasons = summary.reasons.filter((reason) => reason.outcome !== 'sent');
  return (
    <Section title="Why some devices got nothing" testId="failure-reasons">
      {reasons.length === 0 ? (
        <p class="empty">No failures.</p>
      ) : (
        <ul class="reasons">
          {reasons.map((reason) => (
            <li key={`${reason.outcome}${reason.reason}`}>
              <strong>{reason.count.toLocaleString()}</strong> {reasonInWords(reason.reason)}{' '}
              <span class="muted">
                ({inWords(outcomeWords, reason.outcome)}: <code>{reason.reason}</code>)
              </span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
