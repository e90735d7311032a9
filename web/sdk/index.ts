import { createSdk } from './sdk.ts';

export type {
  EventValue,
  InAppButton,
  InAppMessage,
  InAppMessageHandler,
  InitializeOptions,
  PushEngineError,
  PushEngineSdk,
  TagValue,
  TrackEventOptions,
} from './types.ts';

/** `import PushEngine from 'https://push.example.com/sdk/web.js'` */
const PushEngine = createSdk();
export default PushEngine;
export { PushEngine };
