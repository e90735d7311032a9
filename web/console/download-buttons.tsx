import { download } from './api.ts';
import { useAction } from './hooks.ts';
import { ErrorMessage } from './ui.tsx';

export interface DownloadChoice {
  label: string;
  path: string;
  fileName: string;
}

/** Buttons that each download a file of the API's (an export), with the failure shown beside them. */
export function DownloadButtons({ choices, label }: { choices: DownloadChoice[]; label: string }) {
  const saving = useAction((choice: DownloadChoice) => download(choice.path, choice.fileName));
  return (
    <fieldset class="downloads">
      <legend class="visually-hidden">{label}</legend>
      {choices.map((choice) => (
        <button
          type="button"
          class="secondary"
          key={choice.path}
          disabled={saving.running}
          onClick={() => void saving.run(choice)}
        >
          {choice.label}
        </button>
      ))}
      <ErrorMessage error={saving.error} />
    </fieldset>
  );
}
