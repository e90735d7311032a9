import { useState } from 'preact/hooks';
import { Toast } from '../layout.tsx';
import type { ScreenProps } from '../route.ts';
import { JourneyList } from './journeys/journey-list.tsx';
import { JourneyPage } from './journeys/journey-page.tsx';

/** The journeys (`#/journeys`), and each in the builder at its own address (`#/journeys/{id}`, `#/journeys/new`). */
export function JourneysScreen({ path }: ScreenProps) {
  const [opened] = path;
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <>
      {opened === undefined ? (
        <JourneyList />
      ) : (
        <JourneyPage key={opened} id={opened === 'new' ? null : opened} onSaved={setNotice} />
      )}
      <Toast message={notice} onDone={() => setNotice(null)} />
    </>
  );
}
