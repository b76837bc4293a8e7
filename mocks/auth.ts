import { timingSafeEqual } from "node:crypto";

/**
 * The one account the mock knows, so the personal streams can be exercised both ways: these
 * credentials get the example hits, anything else the single uniform 401 of the spec. The key
 * has the documented format (32 lowercase hex characters); it protects nothing.
 */
export interface DemoAccount {
  uid: number;
  apiKey: string;
}

// Not 0123…cdef: that one is what test suites (ours included) send as the obviously wrong key.
export const DEFAULT_DEMO_ACCOUNT: DemoAccount = { uid: 10001, apiKey: "7e57ab1e0ddba11c0ffee0ddba11fee7" };

/** Constant-time comparison, as the spec asks of real servers: the mock should not teach worse habits. */
export function credentialsValid(account: DemoAccount, uid: unknown, apiKey: string | undefined): boolean {
  if (apiKey === undefined) return false;
  const a = Buffer.from(apiKey);
  const b = Buffer.from(account.apiKey);
  const keyOk = a.length === b.length && timingSafeEqual(a, b);
  return keyOk && uid === account.uid;
}
