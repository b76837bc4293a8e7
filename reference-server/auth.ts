import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Database } from "better-sqlite3";

/**
 * API keys of the personal streams. A key is 32 random lowercase hex characters (128 bits), so a
 * fast keyed hash is enough (no password stretching needed): HMAC-SHA256 under a per-account
 * salt. Only salt and hash are stored; comparison is constant-time; an unknown uid is checked
 * against a dummy hash so its answer takes the same path and time as a wrong key.
 */
export const KEY_PATTERN = /^[0-9a-f]{32}$/;

export interface Account {
  uid: number;
  followWords: string[];
  pushCates: string[];
  pushWords: string[];
}

interface AccountRow {
  uid: number;
  key_salt: Buffer;
  key_hash: Buffer;
  follow_words: string;
  push_cates: string;
  push_words: string;
}

export function newKey(): string {
  return randomBytes(16).toString("hex");
}

function hashKey(key: string, salt: Buffer): Buffer {
  return createHmac("sha256", salt).update(key, "utf8").digest();
}

export function saveAccount(db: Database, account: Account, key: string): void {
  if (!KEY_PATTERN.test(key)) throw new Error("an API key is 32 lowercase hexadecimal characters");
  const salt = randomBytes(16);
  db.prepare(
    `INSERT OR REPLACE INTO accounts (uid, key_salt, key_hash, follow_words, push_cates, push_words)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(
    account.uid,
    salt,
    hashKey(key, salt),
    JSON.stringify(account.followWords),
    JSON.stringify(account.pushCates),
    JSON.stringify(account.pushWords),
  );
}

/** Returns a verifier: (uid as sent, key as sent) → the account, or undefined for any failure. */
export function accountVerifier(
  db: Database,
): (uid: number | undefined, key: string | undefined) => Account | undefined {
  const find = db.prepare<[number], AccountRow>("SELECT * FROM accounts WHERE uid = ?");
  const dummySalt = randomBytes(16);
  const dummyHash = hashKey(newKey(), dummySalt);
  return (uid, key) => {
    const row = uid === undefined ? undefined : find.get(uid);
    const candidate = typeof key === "string" ? key : "";
    const expected = row?.key_hash ?? dummyHash;
    const actual = hashKey(candidate, row?.key_salt ?? dummySalt);
    const same = timingSafeEqual(actual, expected);
    if (!row || !same || !KEY_PATTERN.test(candidate)) return undefined;
    return {
      uid: row.uid,
      followWords: JSON.parse(row.follow_words) as string[],
      pushCates: JSON.parse(row.push_cates) as string[],
      pushWords: JSON.parse(row.push_words) as string[],
    };
  };
}
