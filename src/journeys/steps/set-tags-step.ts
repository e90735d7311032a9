import { changeDevice } from '../../devices/change-device.ts';
import { applyUserTags } from '../../user-tags/apply-user-tags.ts';
import { deviceKey } from '../../models/device.ts';
import { nextOf, type StepResult, type StepRun } from './step-context.ts';

/**
 * The tags on the device, or on every device of the user, through the guarded writes the tag routes use: setting the
 * same tags again changes nothing, so a rerun is harmless. Changes that would pass the tag limit are not made and the
 * traveller goes on, its outcome saying so.
 */
export const runSetTags: StepRun<'setTags'> = async (context, step, travellers) => {
  const { models } = context.deps;
  const next = nextOf(context.version, step);
  const results = new Map<string, StepResult>();
  for (const traveller of travellers) {
    const { subjectId, projectId } = traveller;
    let outcome: Record<string, unknown>;
    if (traveller.subjectType === 'device') {
      const change = await changeDevice(models, { _id: deviceKey(projectId, subjectId) }, () => ({}), step.tags);
      outcome = change === null ? { devices: 0 } : 'tagCount' in change ? { overLimit: true } : { devices: 1 };
    } else {
      const result = await applyUserTags(models, { projectId, userId: subjectId, tags: step.tags });
      outcome = 'devices' in result ? { devices: result.devices.length } : { overLimit: true };
    }
    results.set(traveller._id, { next, outcome });
  }
  return results;
};
