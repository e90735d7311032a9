import { expect } from 'vitest';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import type { DeviceImportView } from '../../src/schemas/device-import.ts';
import type { TestIngress } from './ingress.ts';
import { eventually } from './eventually.ts';

/** POSTs the body as an import of the project's, answering the response as is. */
export function uploadImport(
  ingress: TestIngress,
  project: CreatedProject,
  body: string | Buffer,
  contentType: string,
) {
  return ingress.request('POST', `/v1/projects/${project.projectId}/device-imports`, {
    key: project.apiKey,
    rawBody: body,
    headers: { 'content-type': contentType },
  });
}

export function readImport(ingress: TestIngress, project: CreatedProject, importId: string) {
  return ingress.request<{ data: DeviceImportView }>(
    'GET',
    `/v1/projects/${project.projectId}/device-imports/${importId}`,
    {
      key: project.apiKey,
    },
  );
}

/** Uploads the body and waits until a worker has applied it, answering the import as it ended. */
export async function importDevices(
  ingress: TestIngress,
  project: CreatedProject,
  body: string | Buffer,
  contentType = 'application/x-ndjson',
  timeoutMs = 30_000,
): Promise<DeviceImportView> {
  const uploaded = await uploadImport(ingress, project, body, contentType);
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(202);
  expect(uploaded.body.data.status).toBe('queued');
  return eventually(async () => {
    const answer = await readImport(ingress, project, uploaded.body.data.id);
    expect(answer.body.data.status, JSON.stringify(answer.body)).toMatch(/completed|failed/);
    return answer.body.data;
  }, timeoutMs);
}

export const ndjson = (rows: object[]) => rows.map((row) => JSON.stringify(row)).join('\n');
