import { describe, expect, it } from 'vitest';
import { zoneProgress } from '../../src/notifications/zone-progress.ts';

const [t0, t1, t2] = [1_000, 2_000, 3_000];

describe("a local-time send's zones (CONTRACTS §15, §19)", () => {
  it('counts a zone sent once each device queued for it has its outcome', () => {
    const zones = [
      { at: t0, devices: 4 },
      { at: t1, devices: 3 },
    ];
    expect(zoneProgress(zones, new Map([[t0, 4]]))).toEqual({ total: 2, sent: 1 });
    expect(zoneProgress(zones, new Map([[t0, 3]]))).toEqual({ total: 2, sent: 0 });
    expect(zoneProgress(undefined, new Map())).toBeUndefined();
  });

  it("shows an experiment's winner zones in place of the test's, a shared instant sent once both groups' devices are", () => {
    const test = [
      { at: t0, devices: 4 },
      { at: t1, devices: 3 },
    ];
    const winner = [
      { at: t0, devices: 5 },
      { at: t2, devices: 6 },
    ];
    // The test's 4 devices at t0 have their outcomes; the winner's 5 due then still wait (quiet hours, say).
    expect(zoneProgress(test, new Map([[t0, 4]]), winner)).toEqual({ total: 2, sent: 0 });
    expect(zoneProgress(test, new Map([[t0, 9]]), winner)).toEqual({ total: 2, sent: 1 });
    expect(
      zoneProgress(
        test,
        new Map([
          [t0, 9],
          [t1, 3],
          [t2, 6],
        ]),
        winner,
      ),
    ).toEqual({ total: 2, sent: 2 });
    // Before the winner's fan-out has queued a part, the test's zones show.
    expect(zoneProgress(test, new Map([[t0, 4]]), [])).toEqual({ total: 2, sent: 1 });
  });
});
