import { useState } from 'preact/hooks';
import type { TravellerView } from '../../../../src/schemas/journey-traveller.ts';
import { api } from '../../api.ts';
import { useAction } from '../../hooks.ts';
import { Field, Select } from '../../fields.tsx';
import { Section } from '../../layout.tsx';
import { href } from '../../route.ts';
import { ErrorMessage, formatTime } from '../../ui.tsx';

type SubjectType = 'device' | 'user';

const leftWords: Record<NonNullable<TravellerView['leftBecause']>, string> = {
  completed: 'it reached the end',
  exit_rule: 'an exit rule took it out',
  journey_deleted: 'the journey was deleted',
  step_failed: 'a step failed three times',
};

/** What a step did for this traveller, in words: the path taken, the branch's answer, the push sent. */
function outcomeWords(outcome: Record<string, unknown>): string {
  if (typeof outcome.path === 'string') return `took the path ${outcome.path}`;
  if (typeof outcome.result === 'boolean') return outcome.result ? 'the branch said yes' : 'the branch said no';
  if (typeof outcome.notificationId === 'string') return 'sent its push';
  if (outcome.skipped === 'template_deleted') return 'sent nothing: its template was deleted';
  if (typeof outcome.heard === 'string') return `heard ${outcome.heard}`;
  if (outcome.timedOut === true) return 'the event did not come in time';
  if (typeof outcome.until === 'string') return `waited until ${formatTime(outcome.until)}`;
  if (typeof outcome.devices === 'number')
    return `set tags on ${outcome.devices} device${outcome.devices === 1 ? '' : 's'}`;
  if (outcome.overLimit === true) return 'set no tags: the device holds too many';
  if (outcome.published === true) return 'notified the webhooks';
  return JSON.stringify(outcome);
}

function Visit({ visit }: { visit: TravellerView }) {
  return (
    <article class="card visit" data-testid="traveller-visit">
      <h3>
        Visit {visit.visit} <span class="muted">(version {visit.version})</span>
      </h3>
      <p>
        Entered {formatTime(visit.enteredAt)} on <code class="name">{visit.entryEvent.type}</code>.
      </p>
      <ol class="visit-steps">
        {visit.passed.map((passed, at) => (
          <li key={at}>
            <code>{passed.stepId}</code> {outcomeWords(passed.outcome)}{' '}
            <span class="muted">{formatTime(passed.at)}</span>
          </li>
        ))}
      </ol>
      <p data-testid="traveller-where">
        {visit.state === 'left'
          ? `Left ${formatTime(visit.leftAt)}: ${visit.leftBecause ? leftWords[visit.leftBecause] : 'it left'}.`
          : `${visit.state === 'paused' ? 'Held while the journey is paused' : 'Travelling'}${visit.at ? ` at ${visit.at}` : ''}${visit.until ? ` until ${formatTime(visit.until)}` : ''}.`}
      </p>
    </article>
  );
}

/** Where a device or user is in the journey and why: each visit, newest first. */
export function TravellerLookup({ path }: { path: string }) {
  const [subjectType, setSubjectType] = useState<SubjectType>('device');
  const [subjectId, setSubjectId] = useState('');
  const lookup = useAction(async () => {
    const id = subjectId.trim();
    const visits = await api<TravellerView[]>('GET', `${path}/travellers/${subjectType}/${encodeURIComponent(id)}`);
    return { subjectType, id, visits };
  });
  const found = lookup.result;
  return (
    <Section title="Find a traveller">
      <form
        class="filters"
        aria-label="Find a traveller"
        onSubmit={(event) => {
          event.preventDefault();
          if (subjectId.trim() !== '') void lookup.run();
        }}
      >
        <Select
          label="Look up a"
          name="traveller-type"
          value={subjectType}
          options={
            [
              ['device', 'Device id'],
              ['user', 'User id'],
            ] as const
          }
          onChange={setSubjectType}
        />
        <Field label="Id" name="traveller-id" value={subjectId} onInput={setSubjectId} />
        <button type="submit" disabled={subjectId.trim() === '' || lookup.running}>
          Look up
        </button>
      </form>
      <ErrorMessage error={lookup.error} />
      {found && (
        <div aria-live="polite">
          <p>
            <a href={found.subjectType === 'user' ? href('devices', 'user', found.id) : href('devices', found.id)}>
              {found.id}
            </a>{' '}
            {found.visits.length === 0
              ? 'has not entered this journey: no event of it matched the entry, or it was outside the segment, or entering again was not allowed yet.'
              : `has entered ${found.visits.length} time${found.visits.length === 1 ? '' : 's'}.`}
          </p>
          {found.visits.map((visit) => (
            <Visit key={visit.visit} visit={visit} />
          ))}
        </div>
      )}
    </Section>
  );
}
