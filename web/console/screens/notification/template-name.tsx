import type { TemplateView } from '../../../../src/schemas/template.ts';
import { api } from '../../api.ts';
import { useLoad } from '../../hooks.ts';
import { href } from '../../route.ts';

/** The name of the template a send used, linking to the templates, or that it was deleted since. */
export function TemplateName({ base, templateId }: { base: string; templateId: string }) {
  const template = useLoad(
    () => api<TemplateView>('GET', `${base}/templates/${encodeURIComponent(templateId)}`),
    [base, templateId],
  );
  if (template.error?.status === 404) return <span class="muted">a template deleted since</span>;
  return <a href={href('templates')}>{template.data?.name ?? '…'}</a>;
}
