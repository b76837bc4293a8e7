/**
 * What each request costs in units of the limit, from RateLimit-Remaining: when an address sends a
 * request alone (nothing else of its in flight) after its previous answer came, the server's count
 * must fall by exactly one. An operation whose every such request lowered it by two or more takes
 * more than its share (the run's window then fills early); one sample, or an operation that
 * sometimes costs one, proves nothing (another client behind the address, a slot freed meanwhile).
 */
import type { Exchange } from "../types.ts";

export interface UnitCost {
  operation: string;
  /** The fewest units one of its requests took. */
  units: number;
  requests: number;
  /** One of its answers, for the finding's curl line. */
  exchange: Exchange;
}

/** One request in flight: alone while nothing else of its address leaves before its answer comes. */
export interface Flight {
  alone: boolean;
}

export class UnitCosts {
  private readonly inFlight = new Map<string, Set<Flight>>();
  private readonly last = new Map<string, { remaining: number; receivedAt: number }>();
  private readonly drops = new Map<string, { units: number[]; exchange: Exchange }>();

  /** A request leaves `address`: it, and whatever of the address is in flight, are no longer alone. */
  begin(address: string | undefined): Flight {
    const flying = this.inFlight.get(address ?? "") ?? new Set<Flight>();
    const flight = { alone: flying.size === 0 };
    for (const other of flying) other.alone = false;
    flying.add(flight);
    this.inFlight.set(address ?? "", flying);
    return flight;
  }

  /** Its answer came; `remaining` when the server's count is to be believed (a served GET). */
  end(address: string | undefined, flight: Flight, e: Exchange, remaining: number | undefined): void {
    this.inFlight.get(address ?? "")?.delete(flight);
    if (remaining === undefined) return;
    const before = this.last.get(address ?? "");
    this.last.set(address ?? "", { remaining, receivedAt: e.receivedAt });
    if (!flight.alone || !before || e.sentAt < before.receivedAt || !e.operation) return;
    const op = e.operation.operationId;
    const entry = this.drops.get(op) ?? { units: [], exchange: e };
    entry.units.push(before.remaining - remaining);
    this.drops.set(op, entry);
  }

  /** Operations that took two units or more every time they were seen alone, twice at least. */
  costly(): UnitCost[] {
    return [...this.drops]
      .filter(([, d]) => d.units.length >= 2 && d.units.every((u) => u >= 2))
      .map(([operation, d]) => ({
        operation,
        units: Math.min(...d.units),
        requests: d.units.length,
        exchange: d.exchange,
      }));
  }
}
