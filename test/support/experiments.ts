import type { CreatedProject } from '../../src/projects/create-project.ts';
import type { TestIngress } from './ingress.ts';

/** A marketer's pick of an experiment's winner (POST .../winner), answered as it came. */
export const pickWinner = (ingress: TestIngress, project: CreatedProject, id: string, variant: string) =>
  ingress.request('POST', `/v1/projects/${project.projectId}/notifications/${id}/winner`, {
    key: project.apiKey,
    body: { variant },
  });
