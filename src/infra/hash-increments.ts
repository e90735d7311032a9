import type { ChainableCommander } from 'ioredis';

/** One Redis hash field to increment: by an integer (`HINCRBY`), or by a float (`HINCRBYFLOAT`). */
export interface HashIncrement {
  key: string;
  field: string;
  by: number;
  float?: boolean;
}

export function queueIncrements(pipeline: ChainableCommander, increments: HashIncrement[]): void {
  for (const { key, field, by, float } of increments) {
    if (float) pipeline.hincrbyfloat(key, field, by);
    else pipeline.hincrby(key, field, by);
  }
}

/**
 * Increments as a script's keys and arguments, to follow its one key and one argument of its own: `incrementsScript`
 * applies them, so that a script's own write and these counts go in one round trip.
 */
export function incrementArguments(increments: HashIncrement[]): { keys: string[]; args: (string | number)[] } {
  return {
    keys: increments.map((increment) => increment.key),
    args: increments.flatMap(({ field, by, float }) => [float ? 'f' : 'i', field, by]),
  };
}

/** The Lua that applies incrementArguments (keys from the second, arguments from the second, three each). */
export const incrementsScript = `
for i = 2, #KEYS do
  local kind, field, by = ARGV[3 * i - 4], ARGV[3 * i - 3], ARGV[3 * i - 2]
  redis.call(kind == 'f' and 'HINCRBYFLOAT' or 'HINCRBY', KEYS[i], field, by)
end`;
