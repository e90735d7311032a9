import { visibleTextPattern } from './characters.ts';
import { Type, type TSchema } from 'typebox';

/** CONTRACTS §1: nothing beside `error`, and nothing in it beside code, message and details. */
export const ErrorResponse = Type.Object(
  {
    error: Type.Object(
      {
        code: Type.String({ pattern: '^[a-z]+(_[a-z]+)*$' }),
        message: Type.String({ minLength: 1 }),
        details: Type.Optional(
          Type.Array(Type.Object({ path: Type.String(), message: Type.String() }, { additionalProperties: false })),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/**
 * A JSON number literal past ±1.8e308 (1e400) parses as Infinity, which no field here accepts: MongoDB refuses to
 * store it and a queued job's JSON turns it into null (a deleted tag). Bounding the value refuses it with a 400.
 */
export const FiniteNumber = (options: { errorMessage?: string } = {}) =>
  Type.Number({ minimum: -Number.MAX_VALUE, maximum: Number.MAX_VALUE, ...options });

/** A page size of a list: a whole number from 1 to its maximum. */
export const PageLimit = (maximum: number, defaultLimit: number) =>
  Type.Integer({
    minimum: 1,
    maximum,
    default: defaultLimit,
    errorMessage: `must be a whole number from 1 to ${maximum}`,
  });

/** A time in a request: with its zone, so that it means one instant. */
export const IsoTime = () =>
  Type.String({
    format: 'date-time',
    errorMessage: 'must be an ISO 8601 time with a time zone (2024-04-19T14:23:56+09:00), in the years 0001 to 9999',
  });

/** A push's body must show some text: an empty, blank or zero-width one shows an empty notification. */
export const notBlank = {
  pattern: visibleTextPattern,
  errorMessage: 'must hold some visible text: a body that renders as nothing shows an empty notification',
} as const;

/**
 * An object of any keys whose values match `value`. TypeBox's Record of Type.String() matches keys to `^.*$`, which a
 * key holding a line break does not match: such a key's value would go unchecked in requests and its entry be left
 * out of answers. Every key matches this pattern.
 */
export const KeyedBy = <T extends TSchema>(value: T, options: Record<string, unknown> = {}) =>
  Type.Record(Type.String({ pattern: '^[\\s\\S]*$' }), value, options);

/** A send's or an events request's key: a repeat within its window answers the same and does nothing twice. */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, errorMessage: 'must be 1 to 255 characters' }),
  ),
});

export const dataResponse = <T extends TSchema>(data: T) => Type.Object({ data });

export const ProjectParams = Type.Object({ projectId: Type.String({ minLength: 1, maxLength: 128 }) });

/** `.` and `..` are dot segments, which clients remove from a URL (%2e too): no device path could name them. */
export const DeviceId = Type.String({
  pattern: '^(?!\\.\\.?$)[A-Za-z0-9._:-]{1,128}$',
  errorMessage: 'must be 1 to 128 characters of A-Z a-z 0-9 . _ : -, other than . and ..',
});

export const ProjectDeviceParams = Type.Object({ projectId: ProjectParams.properties.projectId, deviceId: DeviceId });

/** Templates, segments and journeys, newest first. */
export const ResourceListQuery = Type.Object(
  {
    limit: PageLimit(1000, 100),
    // The last item seen: its id, or its createdAt (a page holds its last millisecond whole, so neither skips any).
    before: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  },
  { additionalProperties: false },
);
