/**
 * The uid a personal-stream request authenticates: exactly one `uid` written as the account's uid
 * is, 1 to 9 decimal digits without a leading zero. Anything else (absent, empty, given twice,
 * `10001.0`, `+10001`, `010001`) authenticates no one, so it
 * gets the one shared 401 like a wrong key: the credentials are checked before the parameters
 * (info.description "Order of checks"), and no answer tells a malformed uid from an unknown one.
 */
export function credentialUid(query: URLSearchParams): number | undefined {
  const given = query.getAll("uid");
  const [uid] = given;
  return given.length === 1 && uid !== undefined && /^[1-9][0-9]{0,8}$/.test(uid) ? Number(uid) : undefined;
}
