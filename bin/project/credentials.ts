import { readFile } from 'node:fs/promises';
import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { ApnsCredentials, FcmServiceAccount, signingKeyProblem } from '../../src/credentials/push-credentials.ts';
import { setPushCredentials } from '../../src/projects/set-credentials.ts';
import { printResult, runCli, readOptions, warnOfAnotherCredentialsKey } from './cli-context.ts';

const values = readOptions(
  'usage: npm run project:credentials -- --project <id> [--fcm-service-account <file.json>] [--apns-key <AuthKey.p8> --apns-key-id <id> --apns-team-id <id> --apns-topic <bundle id> [--apns-production]] [--json]',
  {
    project: { type: 'string' },
    'fcm-service-account': { type: 'string' },
    'apns-key': { type: 'string' },
    'apns-key-id': { type: 'string' },
    'apns-team-id': { type: 'string' },
    'apns-topic': { type: 'string' },
    'apns-production': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
);

function checked<T extends TSchema>(schema: T, value: unknown, what: string): Static<T> {
  if (!Value.Check(schema, value)) {
    const problems = [...Value.Errors(schema, value)].map((error) => `${error.instancePath || '/'} ${error.message}`);
    throw new Error(`${what} is not valid: ${problems.join('; ')}`);
  }
  return value;
}

await runCli(async ({ models, config }) => {
  if (!values.project) throw new Error('--project is required');
  const fcmFile = values['fcm-service-account'];
  const fcm = fcmFile
    ? checked(FcmServiceAccount, JSON.parse(await readFile(fcmFile, 'utf8')), `the service account file ${fcmFile}`)
    : undefined;
  const apnsKeyFile = values['apns-key'];
  const apns = apnsKeyFile
    ? checked(
        ApnsCredentials,
        {
          key: await readFile(apnsKeyFile, 'utf8'),
          keyId: values['apns-key-id'],
          teamId: values['apns-team-id'],
          topic: values['apns-topic'],
          production: values['apns-production'],
        },
        'the APNs credentials (--apns-key, --apns-key-id, --apns-team-id, --apns-topic)',
      )
    : undefined;
  const fcmKeyProblem = fcm && signingKeyProblem(fcm.private_key, 'fcm');
  if (fcmKeyProblem)
    throw new Error(`the private_key of the service account file ${fcmFile} is not usable: ${fcmKeyProblem}`);
  const apnsKeyProblem = apns && signingKeyProblem(apns.key, 'apns');
  if (apnsKeyProblem) throw new Error(`the APNs key ${apnsKeyFile} is not usable: ${apnsKeyProblem}`);
  if (!fcm && !apns)
    throw new Error(
      'give --fcm-service-account <file.json> and/or --apns-key <AuthKey.p8> with --apns-key-id, --apns-team-id, --apns-topic',
    );
  await warnOfAnotherCredentialsKey(models, config);
  const stored = await setPushCredentials(models, config.credentialsKey, values.project, { fcm, apns });
  printResult({ projectId: values.project, ...stored }, values.json);
});
