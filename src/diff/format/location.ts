import type { Finding } from "../types.ts";

/** `GET /api/v1/rank (query limit) #/components/parameters/RankLimit/schema/maximum` */
export function describeLocation(f: Finding): string {
  const parts: string[] = [];
  if (f.location.operation) parts.push(f.location.operation);
  if (f.location.parameter) parts.push(`(${f.location.parameter})`);
  parts.push(`#${f.location.pointer}${f.location.in === "base" ? " [base]" : ""}`);
  return parts.join(" ");
}

export function summaryLine(s: { breaking: number; warning: number; info: number }): string {
  return `${s.breaking} breaking, ${s.warning} warnings, ${s.info} info`;
}
