/**
 * The uid a personal-stream request authenticates: exactly one `uid` of 1 to 9 decimal digits, as
 * sent. Anything else (absent, empty, given twice, `10001.0`, `+10001`) authenticates no one, so it
 * gets the one shared 401 like a wrong key: the credentials are checked before the parameters
 * (info.description "Order of checks"), and no answer tells a malformed uid from an unknown one.
 */
export function credentialUid(query: URLSearchParams): number | undefined {
  const given = query.getAll("uid");
  const [uid] = given;
  return given.length === 1 && uid !== undefined && /^[0-9]{1,9}$/.test(uid) ? Number(uid) : undefined;
}
