import { describe, expect, it } from 'vitest';
import { splitByStream } from './online-rebuild.js';
import type { RecordedEvent } from './types.js';

const event = (globalPosition: number, streamId: string) =>
  ({ globalPosition, streamId, eventId: String(globalPosition), streamVersion: 1, type: 'T', data: {}, metadata: { correlationId: 'c', causationId: null, actor: null }, recordedAt: new Date(0) }) as RecordedEvent;

describe('splitByStream (apply lanes, ADR 0041)', () => {
  it('keeps every event, each stream on one lane in order, the same lane in every batch', () => {
    const events = Array.from({ length: 400 }, (_, i) => event(i + 1, `s-${i % 40}`));
    const [a, b] = splitByStream(events, 2);
    expect(a!.length + b!.length).toBe(400);
    expect(a!.length).toBeGreaterThan(0);
    expect(b!.length).toBeGreaterThan(0);
    const laneOf = new Map<string, number>();
    [a!, b!].forEach((run, lane) => {
      for (const e of run) {
        expect(laneOf.get(e.streamId) ?? lane).toBe(lane);
        laneOf.set(e.streamId, lane);
      }
      expect(run.map((e) => e.globalPosition)).toEqual([...run.map((e) => e.globalPosition)].sort((x, y) => x - y));
    });
    const [again] = splitByStream(events.slice(200), 2);
    for (const e of again!) expect(laneOf.get(e.streamId)).toBe(0);
  });
});
