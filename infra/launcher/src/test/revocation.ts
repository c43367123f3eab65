import { expect } from 'vitest';

/** One authenticated call to a service route, and the statuses that mean "the token was accepted". */
export interface Probe {
  name: string;
  send: () => Promise<{ status: number; body: any }>;
  accepted: number[];
}

/**
 * Polls every probe at once until each answers 401 with `message`, and fails if any still accepts the token (or
 * answers anything else) once `withinMs` has passed since the call: the bar is the time the revocation takes to reach
 * every service, measured from the moment the revoking request returned.
 */
export async function expectRefusedEverywhereWithin(
  probes: Probe[],
  withinMs: number,
  message: string,
): Promise<void> {
  const deadline = Date.now() + withinMs;
  const outcomes = await Promise.all(
    probes.map(async (probe) => {
      for (;;) {
        const res = await probe.send();
        if (res.status === 401 && res.body?.message === message)
          return { name: probe.name, refused: true, last: res.status };
        if (Date.now() > deadline)
          return {
            name: probe.name,
            refused: false,
            last: `${res.status} ${JSON.stringify(res.body).slice(0, 200)}`,
          };
        await new Promise((r) => setTimeout(r, 20));
      }
    }),
  );
  expect(outcomes.filter((o) => !o.refused)).toEqual([]);
}
