#!/usr/bin/env python3
"""An independent implementation of the deal-alert (线报) open data API v1.

Written from the source document, DESIGN.md and openapi/openapi.yaml only (see CHOICES.md).
Standard library only:

    python3 server.py --port P [--host 127.0.0.1] [--trusted-proxy 127.0.0.2,...] [--live 5]
"""

import argparse
import gzip
import hashlib
import hmac
import ipaddress
import json
import math
import os
import random
import re
import secrets
import socket
import sys
import threading
import time
import zlib
from collections import deque
from datetime import datetime, timedelta
from decimal import Decimal
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from xml.sax.saxutils import escape as xml_escape

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data as D  # noqa: E402

API_VERSION = "1.2.0"

# ---------------------------------------------------------------------------------------------
# policies of the spec (x-rate-limit, x-cors, x-methods, x-query-string, x-caching, ...)
# ---------------------------------------------------------------------------------------------
RATE_LIMIT = 60
RATE_WINDOW = 60.0
MAX_QUERY = 4096
MAX_HEAD_BYTES = 16 * 1024
HEADER_TIMEOUT = 10.0   # the request line and headers must arrive within this
IDLE_TIMEOUT = 60.0     # an idle keep-alive connection is closed silently after this
MAX_DISCARD_BODY = 1 << 20
COMPRESS_MIN = 1024
ALLOW = "GET, HEAD, OPTIONS"
EXPOSE = "Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset"
CC_PUBLIC = "no-cache"
CC_PERSONAL = "private, no-store"
CC_LIMITED = "no-store"

PROBLEMS = {
    "invalid-parameter": (400, "Invalid request parameter",
                          "One or more parameters are missing, malformed, out of range or not one of the allowed values; see errors."),
    "missing-search-criterion": (400, "Search needs a criterion",
                                 "Give at least one of q, kp, mip or mxp with a non-empty value."),
    "unauthorized": (401, "Unauthorized", "A valid uid and API key are required."),
    "not-found": (404, "Not found", "No resource at this path."),
    "method-not-allowed": (405, "Method not allowed", "The API is read-only; use GET."),
    "malformed-request": (400, "Malformed request",
                          "The request is not valid HTTP (request line, a header, or a missing Host); it was refused before any endpoint saw it."),
    "request-timeout": (408, "Request timeout", "The request's headers did not arrive in time."),
    "headers-too-large": (431, "Request header fields too large",
                          "The request line and headers together exceed 16 KB."),
    "rate-limited": (429, "Too many requests",
                     "More than the allowed requests from this IP within the window; wait Retry-After seconds."),
    "internal": (500, "Internal error", "The server failed to answer; nothing about the request was wrong."),
}

RANK_WINDOWS = [  # act, label, kind, hours or days_ago, human window
    ("yixiaoshi", "一小时", "rolling", 1), ("sanxiaoshi", "三小时", "rolling", 3),
    ("liuxiaoshi", "六小时", "rolling", 6), ("shierxiaoshi", "十二小时", "rolling", 12),
    ("ershisixiaoshi", "二十四小时", "rolling", 24), ("sishibaxiaoshi", "四十八小时", "rolling", 48),
    ("jintian", "今天", "calendar-day", 0), ("zuotian", "昨天", "calendar-day", 1),
    ("qiantian", "前天", "calendar-day", 2), ("santian", "三天", "rolling", 72),
    ("wutian", "五天", "rolling", 120), ("qitian", "七天", "rolling", 168),
    ("shiwutian", "十五天", "rolling", 360),
]
ACTS = [w[0] for w in RANK_WINDOWS]
WINDOW_BY_ACT = {w[0]: w for w in RANK_WINDOWS}
CATEGORY_REFS = ["all"] + [x for c in D.CATEGORIES for x in (c[1], c[0])]
PRICE_SCOPE = {
    "priced_categories": list(D.PRICED_IDS),
    "priced_streams": ["zdm"],
    "unit": "CNY",
    "note": "只有微博线报、好单线报和值得买带价格；其他分类按价格筛选结果为空。",
}
NOT_PROVIDED = [
    {"id": "push-channel", "description": "Pushing alerts to chat tools (WeChat, QQ, Telegram) is a separate feature, not part of this pull API."},
    {"id": "write-operations", "description": "No endpoint creates, edits or deletes alerts, activities or subscriptions."},
    {"id": "feed-history", "description": "The channel feed is a latest snapshot without paging; history comes from rank."},
    {"id": "link-conversion", "description": "No affiliate link-conversion call; every activity already carries its direct h5 link."},
    {"id": "price-on-unpriced-categories", "description": "Only the microblog and good-order categories and the zdm stream carry prices."},
    {"id": "full-text-ranking", "description": "Search matches literal words; it does not rank by relevance (newest first)."},
    {"id": "webhooks", "description": "No callbacks or webhooks; clients poll within the rate limit."},
]
CATEGORY_RETENTION = 20
ZDM_RETENTION = 30

# ---------------------------------------------------------------------------------------------
# parameters: one table per operation, from components/parameters
# ---------------------------------------------------------------------------------------------
WORDS = {"max_words": 10, "max_word_length": 50}
P_LIMIT = lambda mx: {"kind": "int", "min": 1, "max": mx, "default": 20}  # noqa: E731
P_PAGE = {"kind": "int", "min": 1, "max": 1000, "default": 1}
P_CATE = {"kind": "enum", "values": CATEGORY_REFS, "default": "all"}
P_WORDS = {"kind": "words", "maxLength": 200}
P_PRICE = {"kind": "price", "min": Decimal(0), "max": Decimal(1000000)}
OPS = {
    "getMeta": {},
    "getRank": {"act": {"kind": "enum", "values": ACTS, "required": True,
                        "required_reason": "is required (one of the rank types listed by /api/v1/meta)"},
                "limit": P_LIMIT(300)},
    "getFeed": {"cate": P_CATE, "type": {"kind": "enum", "values": ["zdm"]}, "limit": P_LIMIT(50)},
    "searchAlerts": {"q": P_WORDS, "kp": P_WORDS, "mip": P_PRICE, "mxp": P_PRICE, "cate": P_CATE,
                     "page": P_PAGE, "limit": P_LIMIT(50)},
    "listActivities": {"cate": {"kind": "pattern", "re": re.compile(r"[a-z0-9_-]{1,32}"),
                                "pattern": "^[a-z0-9_-]{1,32}$"},
                       "q": P_WORDS, "page": P_PAGE,
                       "pageSize": {"kind": "int", "min": 1, "max": 100, "default": 20},
                       "with_cates": {"kind": "enum", "values": ["0", "1"], "default": "0"}},
    "getRss": {"cate": P_CATE, "tag": {"kind": "string", "minLength": 1, "maxLength": 50}, "q": P_WORDS},
    "getMyFollowHits": {"uid": {"kind": "int", "min": 1, "max": 999999999}, "limit": P_LIMIT(50)},
    "getMyPushHits": {"uid": {"kind": "int", "min": 1, "max": 999999999}, "limit": P_LIMIT(50)},
    "getLegacyRankFile": {},
}
ROUTES = {
    "/api/v1/meta": "getMeta", "/api/v1/rank": "getRank", "/api/v1/feed": "getFeed",
    "/api/v1/search": "searchAlerts", "/api/v1/shenghuo": "listActivities", "/rss.php": "getRss",
    "/api/v1/my/follow": "getMyFollowHits", "/api/v1/my/push": "getMyPushHits",
}
PERSONAL_OPS = {"getMyFollowHits", "getMyPushHits"}
LEGACY_PREFIX = "/plus/json/rank/"

INT_RE = re.compile(r"-?[0-9]+")
PRICE_RE = re.compile(r"[0-9]+(\.[0-9]+)?")
UID_RE = re.compile(r"[1-9][0-9]{0,8}")
KEY_RE = re.compile(r"[0-9a-f]{32}")
TOKEN_RE = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
HEXDIGITS = b"0123456789abcdefABCDEF"
# ECMAScript String.prototype.trim white space (info.description "Characters and words")
JS_WS = "\t\n\x0b\x0c\r \xa0\u1680" + "".join(chr(c) for c in range(0x2000, 0x200B)) + \
        "\u2028\u2029\u202f\u205f\u3000\ufeff"
LATIN_FOLD = str.maketrans({chr(c): chr(c + 32) for c in range(ord("A"), ord("Z") + 1)})


def fold(s):
    return s.translate(LATIN_FOLD)


def split_words(s):
    if s is None:
        return []
    parts = re.split(r"[\n|#]", s)
    return [p.strip(JS_WS) for p in parts if p.strip(JS_WS)]


# ---------------------------------------------------------------------------------------------
# the data store
# ---------------------------------------------------------------------------------------------
class Store:
    def __init__(self, now):
        self.lock = threading.Lock()
        self.alerts = D.generate_alerts(now)          # newest first; replaced, never mutated
        for a in self.alerts:
            self._prep(a)
        self.zdm = D.generate_zdm(now)
        self.activities = D.generate_activities(now)
        for a in self.activities:
            a["_hay"] = fold(a["name"]) + "\n" + fold(a["desc"])
        counts = {}
        for a in self.activities:
            counts[a["cate"]] = counts.get(a["cate"], 0) + 1
        self.cates = [{"id": cid, "name": name, "count": counts.get(cid, 0)} for cid, name in D.ACTIVITY_CATES]
        self.live_rng = random.Random(D.SEED + 99)
        # the demo account: keys stored hashed only
        self.accounts = {}
        self.follow_words = {}
        self.push_rule = {}

    @staticmethod
    def _prep(a):
        a["_hay"] = fold(a["title"]) + "\n" + fold(a.get("content", ""))
        if "price" in a:
            a["_price"] = Decimal(repr(a["price"]))

    def add_account(self, uid, key, follow_words, push_rule):
        self.accounts[uid] = hashlib.sha256(key.encode()).digest()
        self.follow_words[uid] = [fold(w) for w in follow_words]
        self.push_rule[uid] = push_rule

    def check_key(self, uid, key):
        stored = self.accounts.get(uid, b"\0" * 32)
        given = hashlib.sha256((key or "").encode("utf-8", "surrogateescape")).digest()
        ok = hmac.compare_digest(stored, given)
        return ok and uid in self.accounts and key is not None and bool(KEY_RE.fullmatch(key))

    def add_live_alert(self):
        """--live: one new alert now, and a few comments on recent ones. Copy-on-write: a
        request keeps the list (and the records) it started with."""
        now = int(time.time())
        rng = self.live_rng
        with self.lock:
            cur = self.alerts
            ts = max(now, cur[0]["shijianchuo"]) if cur else now
            aid = (cur[0]["id"] if cur else 4180000) + rng.randint(1, 37)
            a = D.make_alert(rng, aid, ts)
            a["comments"] = 0
            self._prep(a)
            cutoff = now - 20 * 86400
            nxt = [x for x in cur if x["shijianchuo"] >= cutoff]
            recent = [i for i, x in enumerate(nxt) if x["shijianchuo"] >= now - 86400]
            for i in rng.sample(recent, min(2, len(recent))):
                b = dict(nxt[i])
                b["comments"] += rng.randint(1, 3)
                nxt[i] = b
            self.alerts = [a] + nxt
            return a


ALERT_FIELDS = ["id", "title", "content", "datetime", "shorttime", "shijianchuo", "cateid", "catename",
                "comments", "louzhu", "louzhuregtime", "url", "yuanurl", "price", "tags"]


def public_alert(a, with_content=True):
    return {k: a[k] for k in ALERT_FIELDS if k in a and (with_content or k != "content")}


def public_activity(a):
    return {k: v for k, v in a.items() if not k.startswith("_")}


def rank_order(items):
    return sorted(items, key=lambda a: (a["comments"], a["shijianchuo"], a["id"]), reverse=True)


def rank_window(act, now):
    _, _, kind, n = WINDOW_BY_ACT[act]
    now = int(now)
    if kind == "rolling":
        return now - n * 3600, now
    midnight = datetime.fromtimestamp(now, D.SHANGHAI).replace(hour=0, minute=0, second=0, microsecond=0)
    start = midnight - timedelta(days=n)
    frm = int(start.timestamp())
    to = now if n == 0 else frm + 86400 - 1
    return frm, to


def words_match_any(hay, words):
    return any(fold(w) in hay for w in words)


def category_id(ref):
    if ref is None or ref == "all":
        return None
    c = D.CAT_BY_ALIAS.get(ref) or D.CAT_BY_ID.get(ref)
    return c[0]


# ---------------------------------------------------------------------------------------------
# the rate limiter: a sliding window of timestamps per client key
# ---------------------------------------------------------------------------------------------
class Limiter:
    def __init__(self, limit=RATE_LIMIT, window=RATE_WINDOW, max_keys=100000):
        self.limit, self.window, self.max_keys = limit, window, max_keys
        self.lock = threading.Lock()
        self.hits = {}
        self.ops = 0

    def _prune(self, q, now):
        edge = now - self.window
        while q and q[0] <= edge:
            q.popleft()

    def _reset_after(self, q, now):
        return max(1, math.ceil(q[0] + self.window - now)) if q else 0

    def _gc(self, now):
        for k in [k for k, q in self.hits.items() if not q or q[-1] <= now - self.window]:
            del self.hits[k]
        if len(self.hits) > self.max_keys:  # still too many: drop the least recently active
            for k, _ in sorted(self.hits.items(), key=lambda kv: kv[1][-1])[: len(self.hits) - self.max_keys]:
                del self.hits[k]

    def take(self, key, count=True):
        """Returns (allowed, headers dict, retry_after or None)."""
        now = time.monotonic()
        with self.lock:
            self.ops += 1
            if self.ops % 1000 == 0 or len(self.hits) > self.max_keys:
                self._gc(now)
            q = self.hits.get(key)
            if q is None:
                q = self.hits[key] = deque()
            self._prune(q, now)
            if count and len(q) >= self.limit:
                retry = self._reset_after(q, now)
                return False, self._headers(0, retry), retry
            if count:
                q.append(now)
            remaining = self.limit - len(q)
            reset = 0 if remaining > 0 else self._reset_after(q, now)
            return True, self._headers(remaining, reset), None

    def _headers(self, remaining, reset):
        return {"RateLimit-Limit": str(self.limit), "RateLimit-Remaining": str(max(0, remaining)),
                "RateLimit-Reset": str(reset)}


# ---------------------------------------------------------------------------------------------
# query strings (x-query-string: form-urlencoded-strict-utf8)
# ---------------------------------------------------------------------------------------------
class DecodeError(Exception):
    pass


def strict_decode(raw_bytes):
    b = raw_bytes.replace(b"+", b" ")
    out = bytearray()
    i, n = 0, len(b)
    while i < n:
        c = b[i]
        if c == 0x25:  # %
            if i + 2 < n and b[i + 1] in HEXDIGITS and b[i + 2] in HEXDIGITS:
                out.append(int(b[i + 1:i + 3], 16))
                i += 3
                continue
            raise DecodeError()
        out.append(c)
        i += 1
    try:
        return out.decode("utf-8", "strict")
    except UnicodeDecodeError:
        raise DecodeError()


def parse_query(raw):
    """raw: the query string as bytes. Returns a list of (name or None, value or None, ok)."""
    pairs = []
    for piece in raw.split(b"&"):
        if not piece:
            continue
        name_b, sep, value_b = piece.partition(b"=")
        try:
            name = strict_decode(name_b)
        except DecodeError:
            pairs.append((None, None))
            continue
        try:
            value = strict_decode(value_b)
        except DecodeError:
            pairs.append((name, DecodeError))
            continue
        pairs.append((name, value))
    return pairs


def err(name, reason, where="query"):
    return {"in": where, "name": name, "reason": reason}


def validate(op, pairs, raw_len):
    """Reads the parameters of op. Returns (values, errors); values hold effective values."""
    spec = OPS[op]
    errors = []
    if raw_len > MAX_QUERY:
        return {}, [err("query", f"the query string is {raw_len} characters as sent; at most {MAX_QUERY} are allowed")]
    seen = {}
    bad_names = set()
    for name, value in pairs:
        if name is None:
            if "query" not in bad_names:
                errors.append(err("query", "a parameter name is not valid percent-encoded UTF-8"))
                bad_names.add("query")
            continue
        if value is DecodeError:
            if name not in bad_names:
                errors.append(err(name, "is not valid percent-encoded UTF-8 (a % needs two hex digits; bytes must be UTF-8)"))
                bad_names.add(name)
            continue
        if name in spec:
            seen.setdefault(name, []).append(value)
    values = {}
    read = set()  # parameters read successfully with a non-empty value
    for name, p in spec.items():
        occ = seen.get(name, [])
        if name in bad_names:
            continue
        if len(occ) > 1:
            errors.append(err(name, f"is given {len(occ)} times; give it at most once"))
            continue
        raw = occ[0] if occ else ""
        if raw == "":
            if p.get("required"):
                errors.append(err(name, p.get("required_reason", "is required")))
            values[name] = p.get("default")
            continue
        kind = p["kind"]
        if kind == "int":
            if not INT_RE.fullmatch(raw):
                errors.append(err(name, f"must be an integer from {p['min']} to {p['max']}, got {raw!r}"))
                continue
            v = int(raw)
            if v < p["min"] or v > p["max"]:
                errors.append(err(name, f"must be an integer from {p['min']} to {p['max']}, got {v}"))
                continue
            values[name] = v
        elif kind == "enum":
            if raw not in p["values"]:
                errors.append(err(name, "must be one of: " + ", ".join(p["values"]) + f"; got {raw!r}"))
                continue
            values[name] = raw
        elif kind == "price":
            if not PRICE_RE.fullmatch(raw):
                errors.append(err(name, f"must be a price in yuan written as digits with an optional fraction (like 9.9 or 10), got {raw!r}"))
                continue
            v = Decimal(raw)
            if v < p["min"] or v > p["max"]:
                errors.append(err(name, f"must be from {p['min']} to {p['max']} yuan, got {raw}"))
                continue
            values[name] = v
        elif kind == "words":
            if len(raw) > p["maxLength"]:
                errors.append(err(name, f"must be at most {p['maxLength']} characters, got {len(raw)}"))
                continue
            words = split_words(raw)
            if len(words) > WORDS["max_words"]:
                errors.append(err(name, f"holds {len(words)} words; at most {WORDS['max_words']} are allowed"))
                continue
            long_ = [w for w in words if len(w) > WORDS["max_word_length"]]
            if long_:
                errors.append(err(name, f"a word is longer than {WORDS['max_word_length']} characters"))
                continue
            values[name] = raw
            values["_words_" + name] = words
            if not words:
                continue  # blank: not "read" as a criterion
        elif kind == "pattern":
            if not p["re"].fullmatch(raw):
                errors.append(err(name, f"must match {p['pattern']}, got {raw!r}"))
                continue
            values[name] = raw
        elif kind == "string":
            if len(raw) < p.get("minLength", 0) or len(raw) > p["maxLength"]:
                errors.append(err(name, f"must be {p.get('minLength', 0)} to {p['maxLength']} characters"))
                continue
            values[name] = raw
        read.add(name)
    values["_read"] = read
    values["_bad"] = {e["name"] for e in errors}
    return values, errors


# ---------------------------------------------------------------------------------------------
# operations: each returns (status, body object) or raises Problem
# ---------------------------------------------------------------------------------------------
class Problem(Exception):
    def __init__(self, code, errors=None, detail=None, headers=None):
        super().__init__(code)
        self.code, self.errors, self.detail, self.headers = code, errors, detail, headers or {}


def problem_body(code, errors=None, detail=None):
    status, title, default_detail = PROBLEMS[code]
    body = {"type": f"/problems/{code}", "title": title, "status": status,
            "detail": detail or default_detail}
    if errors:
        body["errors"] = errors
        if code == "invalid-parameter" and not detail:
            body["detail"] = "; ".join(f"{e['name']}: {e['reason']}" for e in errors)
    return body


class Api:
    def __init__(self, store, base_url):
        self.store = store
        self.base_url = base_url

    def meta(self, v, now):
        limits = {}
        for op, spec in OPS.items():
            for name, p in spec.items():
                entry = {}
                if p["kind"] == "int":
                    entry = {"minimum": p["min"], "maximum": p["max"]}
                    if "default" in p:
                        entry["default"] = p["default"]
                elif p["kind"] == "price":
                    entry = {"minimum": int(p["min"]), "maximum": int(p["max"])}
                elif p["kind"] in ("words", "string"):
                    entry = {"maxLength": p["maxLength"]}
                    if "minLength" in p:
                        entry["minLength"] = p["minLength"]
                if entry:
                    limits.setdefault(op, {})[name] = entry
        data = {
            "api_version": API_VERSION,
            "rank_types": [{"act": a, "label": lbl, "window": (f"last {n} h" if k == "rolling" else f"calendar day {-n if n else 0}"),
                            "kind": k, **({"hours": n} if k == "rolling" else {"days_ago": n})}
                           for a, lbl, k, n in RANK_WINDOWS],
            "timezone": "Asia/Shanghai",
            "rank_order": [{"field": "comments", "direction": "desc"}, {"field": "shijianchuo", "direction": "desc"}],
            "categories": [{"id": c[0], "alias": c[1], "name": c[2], "kind": c[3], "priced": c[4],
                            "retention": CATEGORY_RETENTION} for c in D.CATEGORIES],
            "streams": [{"type": "zdm", "name": "值得买", "priced": True, "retention": ZDM_RETENTION}],
            "price_filter": dict(PRICE_SCOPE),
            "rate_limit": {"limit": RATE_LIMIT, "window_seconds": int(RATE_WINDOW), "scope": "client-ip",
                           "algorithm": "sliding-window",
                           "headers": ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]},
            "limits": limits,
            "not_provided": NOT_PROVIDED,
        }
        return {"data": data, "meta": {"generated_at": int(now)}}

    def rank(self, v, now):
        act, limit = v["act"], v["limit"]
        frm, to = rank_window(act, now)
        items = [a for a in self.store.alerts if frm <= a["shijianchuo"] <= to]
        items = rank_order(items)[:limit]
        return {"data": [public_alert(a, with_content=limit > 50) for a in items],
                "meta": {"act": act, "limit": limit, "count": len(items),
                         "window": {"from": frm, "to": to, "timezone": "Asia/Shanghai"}}}

    def legacy_rank(self, act, now):
        frm, to = rank_window(act, now)
        items = [a for a in self.store.alerts if frm <= a["shijianchuo"] <= to]
        return [public_alert(a, with_content=False) for a in rank_order(items)[:50]]

    def feed(self, v, now):
        cate, typ, limit = v["cate"], v.get("type"), v["limit"]
        if typ == "zdm":
            items = [dict(z) for z in self.store.zdm[:ZDM_RETENTION]][:limit]
            retention = ZDM_RETENTION
        else:
            cid = category_id(cate)
            stream = [a for a in self.store.alerts if cid is None or a["cateid"] == cid][:CATEGORY_RETENTION]
            items = [public_alert(a) for a in stream[:limit]]
            retention = CATEGORY_RETENTION
        return {"data": items, "meta": {"cate": cate, "type": typ, "limit": limit, "count": len(items),
                                         "retention": retention}}

    def search(self, v, now):
        words = v.get("_words_q", [])
        blocks = v.get("_words_kp", [])
        mip, mxp = v.get("mip"), v.get("mxp")
        cid = category_id(v["cate"])
        priced_filter = mip is not None or mxp is not None
        out = []
        for a in self.store.alerts:
            if cid is not None and a["cateid"] != cid:
                continue
            if words and not words_match_any(a["_hay"], words):
                continue
            if blocks and words_match_any(a["_hay"], blocks):
                continue
            if priced_filter:
                p = a.get("_price")
                if p is None or (mip is not None and p < mip) or (mxp is not None and p > mxp):
                    continue
            out.append(a)
        page, limit = v["page"], v["limit"]
        chunk = out[(page - 1) * limit: page * limit]
        return {"data": [public_alert(a) for a in chunk],
                "meta": {"q": v.get("q"), "kp": v.get("kp"),
                         "mip": float(mip) if mip is not None else None,
                         "mxp": float(mxp) if mxp is not None else None,
                         "cate": v["cate"], "page": page, "limit": limit, "count": len(chunk),
                         "total": len(out), "price_scope": dict(PRICE_SCOPE)}}

    def shenghuo(self, v, now):
        cate = v.get("cate")
        words = v.get("_words_q", [])
        out = [a for a in self.store.activities
               if (cate is None or a["cate"] == cate) and (not words or words_match_any(a["_hay"], words))]
        page, size = v["page"], v["pageSize"]
        chunk = out[(page - 1) * size: page * size]
        body = {"data": [public_activity(a) for a in chunk],
                "meta": {"cate": cate, "q": v.get("q"), "page": page, "pageSize": size,
                         "count": len(chunk), "total": len(out)}}
        if v["with_cates"] == "1":
            body["cates"] = [dict(c) for c in self.store.cates]
        return body

    def rss(self, v, now):
        cid = category_id(v["cate"])
        tag = v.get("tag")
        words = v.get("_words_q", [])
        items = [a for a in self.store.alerts
                 if (cid is None or a["cateid"] == cid) and (tag is None or tag in a["tags"])
                 and (not words or words_match_any(a["_hay"], words))][:20]
        label = "全站"
        if cid:
            label = D.CAT_BY_ID[cid][2]
        if tag:
            label += f" 标签 {tag}"
        if words:
            label += " 关键词 " + "|".join(words)
        parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel>',
                 f"<title>{xml_escape('线报 - ' + label)}</title>",
                 f"<link>{xml_escape(self.base_url + '/')}</link>",
                 "<description>最新线报</description><language>zh-cn</language>",
                 f"<lastBuildDate>{formatdate(now, usegmt=True)}</lastBuildDate>"]
        for a in items:
            parts.append(
                "<item>"
                f"<title>{xml_escape(a['title'])}</title>"
                f"<link>{xml_escape(a['url'])}</link>"
                f"<guid>{xml_escape(a['url'])}</guid>"
                f"<pubDate>{formatdate(a['shijianchuo'], usegmt=True)}</pubDate>"
                f"<category>{xml_escape(a['catename'])}</category>"
                f"<description>{xml_escape(a.get('content', ''))}</description>"
                "</item>")
        parts.append("</channel></rss>\n")
        return "".join(parts)

    def personal(self, op, uid, v, now):
        limit = v["limit"]
        if op == "getMyFollowHits":
            words = self.store.follow_words.get(uid, [])
            hits = [a for a in self.store.alerts if any(w in a["_hay"] for w in words)]
        else:
            rule = self.store.push_rule.get(uid, {})
            hits = [a for a in self.store.alerts
                    if (a["cateid"] in rule.get("cates", ()) and "_price" in a and a["_price"] <= rule.get("max_price", 0))
                    or any(w in a["_hay"] for w in rule.get("words", ()))]
        hits = hits[:limit]
        return {"data": [public_alert(a) for a in hits], "meta": {"uid": uid, "limit": limit, "count": len(hits)}}


# ---------------------------------------------------------------------------------------------
# HTTP
# ---------------------------------------------------------------------------------------------
def parse_accept_encoding(values):
    if not values:
        return None
    prefs = {}
    for part in ",".join(values).split(","):
        part = part.strip()
        if not part:
            continue
        coding, *params = [x.strip() for x in part.split(";")]
        q = 1.0
        for prm in params:
            k, _, val = prm.partition("=")
            if k.strip().lower() == "q":
                try:
                    q = float(val.strip())
                except ValueError:
                    q = 0.0
                if not (0.0 <= q <= 1.0):
                    q = 0.0
        prefs[coding.lower()] = q
    best, best_q = None, 0.0
    for c in ("gzip", "deflate"):
        if c in prefs:
            q = prefs[c]
        elif c == "gzip" and "x-gzip" in prefs:
            q = prefs["x-gzip"]
        else:
            q = prefs.get("*", 0.0)
        if q > best_q:
            best, best_q = c, q
    return best


def client_key(sock_ip, xff_values, trusted):
    """x-rate-limit.client_ip: the socket address, or X-Forwarded-For read from the right."""
    if not is_trusted(sock_ip, trusted) or xff_values is None:
        return sock_ip
    hops = ",".join(xff_values).split(",")
    for hop in reversed(hops):
        text = hop.strip(" \t")
        addr = parse_hop(text)
        if addr is None:
            return "xff-text:" + text
        if not is_trusted(addr, trusted):
            return addr
    first = parse_hop(hops[0].strip(" \t"))
    return first


def parse_hop(text):
    t = text
    if t.startswith("["):
        end = t.find("]")
        if end < 0:
            return None
        rest = t[end + 1:]
        if rest and not re.fullmatch(r":[0-9]{1,5}", rest):
            return None
        t = t[1:end]
    elif t.count(":") == 1:
        host, _, port = t.partition(":")
        if not re.fullmatch(r"[0-9]{1,5}", port):
            return None
        t = host
    try:
        ip = ipaddress.ip_address(t)
    except ValueError:
        return None
    return norm_ip(ip)


def norm_ip(ip):
    if isinstance(ip, str):
        try:
            ip = ipaddress.ip_address(ip.split("%")[0])
        except ValueError:
            return ip
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return str(ip)


def is_trusted(ip, trusted):
    try:
        a = ipaddress.ip_address(ip)
    except ValueError:
        return False
    return any(a in net for net in trusted)


class Handler(BaseHTTPRequestHandler):
    server_version = "indep-dealapi/1.0"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    # -- plumbing -------------------------------------------------------------------------
    def log_message(self, fmt, *args):
        if self.server.verbose:
            sys.stderr.write("%s %s\n" % (self.client_address[0], fmt % args))

    def handle_one_request(self):
        self.close_connection = True
        sock = self.connection
        try:
            sock.settimeout(IDLE_TIMEOUT)
            try:
                if not self.rfile.peek(1):
                    return
            except (TimeoutError, socket.timeout, OSError):
                return
            deadline = time.monotonic() + HEADER_TIMEOUT
            self._sock_ip = norm_ip(self.client_address[0])
            head = self._read_head(deadline)
            if head is None:
                return
            self._serve(*head)
        except (TimeoutError, socket.timeout):
            self._refuse_raw("request-timeout")
        except (ConnectionError, BrokenPipeError):
            self.close_connection = True

    def _read_head(self, deadline):
        total = 0
        lines = []
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError()
            self.connection.settimeout(remaining)
            line = self.rfile.readline(MAX_HEAD_BYTES + 1 - total)
            if not line:
                return None  # the client went away
            total += len(line)
            if total > MAX_HEAD_BYTES:
                self._refuse_raw("headers-too-large")
                return None
            if not line.endswith(b"\n"):
                # readline stopped on the byte budget or EOF without a line end
                if total >= MAX_HEAD_BYTES:
                    self._refuse_raw("headers-too-large")
                else:
                    self._refuse_raw("malformed-request")
                return None
            line = line[:-2] if line.endswith(b"\r\n") else line[:-1]
            if not lines and line == b"" and total <= 4:
                total = 0  # RFC 9112 2.2: ignore at least one empty line before the request line
                continue
            if line == b"":
                break
            lines.append(line)
        self.connection.settimeout(IDLE_TIMEOUT)
        reqline = lines[0]
        parts = reqline.split(b" ")
        if len(parts) != 3 or not TOKEN_RE.fullmatch(parts[0]) or not parts[1] or \
                not re.fullmatch(rb"HTTP/1\.[01]", parts[2]):
            self.request_version = "HTTP/1.0"
            self._refuse_raw("malformed-request")
            return None
        method, target, version = parts[0].decode("ascii"), parts[1], parts[2].decode("ascii")
        if any(b < 0x21 or b == 0x7F for b in target):
            self._refuse_raw("malformed-request")
            return None
        headers = []
        for h in lines[1:]:
            if h[:1] in (b" ", b"\t"):
                self._refuse_raw("malformed-request")  # obsolete line folding
                return None
            name, sep, value = h.partition(b":")
            if not sep or not TOKEN_RE.fullmatch(name) or any(b in value for b in (0, 10, 13)):
                self._refuse_raw("malformed-request")
                return None
            headers.append((name.decode("ascii").lower(), value.strip(b" \t").decode("latin-1")))
        self.command, self.request_version = method, version
        self.requestline = reqline.decode("latin-1")
        return method, target, version, headers

    def _hdr(self, headers, name):
        vals = [v for k, v in headers if k == name]
        return vals or None

    # -- answering ------------------------------------------------------------------------
    def _write(self, status, headers, body, head_only=False):
        reason = self.responses.get(status, ("",))[0]
        out = [f"HTTP/1.1 {status} {reason}\r\n"]
        out.append(f"Date: {formatdate(usegmt=True)}\r\n")
        out.append(f"Server: {self.server_version}\r\n")
        for k, v in headers:
            out.append(f"{k}: {v}\r\n")
        if status != 204 and status >= 200:
            out.append(f"Content-Length: {len(body)}\r\n")
        if self.close_connection:
            out.append("Connection: close\r\n")
        elif getattr(self, "request_version", "") == "HTTP/1.0":
            out.append("Connection: keep-alive\r\n")
        out.append("\r\n")
        data = "".join(out).encode("latin-1")
        if not head_only and status != 204:
            data += body
        self.wfile.write(data)
        self.wfile.flush()
        self.log_request(status, len(body))

    def _refuse_raw(self, code):
        """A request refused before routing: counted under the socket's address."""
        self.close_connection = True
        if not hasattr(self, "_sock_ip"):
            self._sock_ip = norm_ip(self.client_address[0])
        if not hasattr(self, "request_version"):
            self.request_version = "HTTP/1.0"
        if not hasattr(self, "requestline"):
            self.requestline = ""
        if not hasattr(self, "command"):
            self.command = ""
        proxy = is_trusted(self._sock_ip, self.server.trusted)
        ok, rl, retry = self.server.limiter.take(self._sock_ip, count=True)
        headers = []
        status, _, _ = PROBLEMS[code]
        body = problem_body(code)
        cc = CC_PUBLIC
        if not ok and not proxy:
            status, body, cc = 429, self._limited_body(retry), CC_LIMITED
            headers.append(("Retry-After", str(retry)))
        if not proxy:
            headers += list(rl.items())
        if code == "method-not-allowed":
            headers.append(("Allow", ALLOW))
        headers += [("Content-Type", "application/problem+json"), ("Cache-Control", cc),
                    ("Access-Control-Allow-Origin", "*"), ("Access-Control-Expose-Headers", EXPOSE)]
        try:
            self._write(status, headers, json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode())
            self._linger()
        except OSError:
            pass

    def _linger(self):
        """Lingering close: stop writing, read what the client still sends (briefly), so that
        closing with unread input does not reset the connection before it reads the answer."""
        try:
            self.connection.shutdown(socket.SHUT_WR)
            self.connection.settimeout(1.0)
            end = time.monotonic() + 1.0
            got = 0
            while time.monotonic() < end and got < (1 << 20):
                chunk = self.connection.recv(65536)
                if not chunk:
                    break
                got += len(chunk)
        except OSError:
            pass

    def _limited_body(self, retry):
        return problem_body("rate-limited", detail=(
            f"More than {RATE_LIMIT} requests from this IP within {int(RATE_WINDOW)} seconds; "
            f"retry after {retry} seconds."))

    def _serve(self, method, target, version, headers):
        srv = self.server
        # connection management
        conn = ",".join(self._hdr(headers, "connection") or []).lower()
        if version == "HTTP/1.1":
            self.close_connection = "close" in conn
        else:
            self.close_connection = "keep-alive" not in conn
        # a body we will not read: discard a small one, else close after answering
        te = self._hdr(headers, "transfer-encoding")
        cl = self._hdr(headers, "content-length")
        malformed = False
        if te and cl:
            malformed = True
        elif cl:
            if len(set(v.strip() for v in ",".join(cl).split(","))) != 1 or \
                    not re.fullmatch(r"[0-9]{1,18}", ",".join(cl).split(",")[0].strip()):
                malformed = True
        hosts = self._hdr(headers, "host")
        if hosts is not None and (len(hosts) != 1 or not hosts[0]):
            malformed = True
        missing_host = hosts is None

        # the client IP (x-rate-limit.client_ip)
        xff = self._hdr(headers, "x-forwarded-for")
        key = client_key(self._sock_ip, xff, srv.trusted)
        if key is None:
            key = self._sock_ip

        if malformed:
            self._refuse_raw("malformed-request")  # a header the parser refuses: the socket's address
            return
        if missing_host:
            self._refuse_parsed("malformed-request", key, personal=False)  # counted like any other
            return
        if te:
            self.close_connection = True
        elif cl:
            n = int(cl[0].split(",")[0].strip())
            if n > MAX_DISCARD_BODY or (n and self._hdr(headers, "expect")):
                self.close_connection = True
            elif n:
                self.rfile.read(n)

        # the target
        raw_target = target
        if raw_target.startswith(b"http://") or raw_target.startswith(b"https://"):
            rest = raw_target.split(b"://", 1)[1]
            slash = rest.find(b"/")
            raw_target = rest[slash:] if slash >= 0 else b"/"
        raw_target = raw_target.split(b"#", 1)[0]
        raw_path, qmark, raw_query = raw_target.partition(b"?")
        try:
            path = strict_decode(raw_path.replace(b"+", b"%2B")) if raw_path.startswith(b"/") else None
        except DecodeError:
            path = None
        op, legacy_act = None, None
        if path in ROUTES:
            op = ROUTES[path]
        elif path and path.startswith(LEGACY_PREFIX) and path.endswith(".json") and \
                "/" not in path[len(LEGACY_PREFIX):] and len(path) > len(LEGACY_PREFIX) + 5:
            op = "getLegacyRankFile"
            legacy_act = path[len(LEGACY_PREFIX):-5]
        personal = op in PERSONAL_OPS
        cc = CC_PERSONAL if personal else CC_PUBLIC

        # OPTIONS: never counted, never refused (x-methods, x-rate-limit.counts_preflight)
        if method == "OPTIONS":
            _, rl, _ = srv.limiter.take(key, count=False)
            base = list(rl.items()) + [("Access-Control-Allow-Origin", "*"),
                                       ("Access-Control-Expose-Headers", EXPOSE), ("Cache-Control", cc)]
            if op is None:
                self._send_json(404, base + [("Content-Type", "application/problem+json")],
                                problem_body("not-found"), headers, method)
                return
            base.append(("Allow", ALLOW))
            if self._hdr(headers, "origin") and self._hdr(headers, "access-control-request-method"):
                base += [("Access-Control-Allow-Methods", "GET, OPTIONS"),
                         ("Access-Control-Allow-Headers", "X-API-Key, Content-Type"),
                         ("Access-Control-Max-Age", "86400")]
            self._write(204, base, b"")
            return

        # 1. the rate limit
        ok, rl, retry = srv.limiter.take(key, count=True)
        base = list(rl.items()) + [("Access-Control-Allow-Origin", "*"), ("Access-Control-Expose-Headers", EXPOSE)]
        if not ok:
            self._send_json(429, base + [("Retry-After", str(retry)), ("Content-Type", "application/problem+json"),
                                         ("Cache-Control", CC_PERSONAL if personal else CC_LIMITED)],
                            self._limited_body(retry), headers, method)
            return
        # 2. the method
        if method not in ("GET", "HEAD"):
            self._send_json(405, base + [("Allow", ALLOW), ("Content-Type", "application/problem+json"),
                                         ("Cache-Control", cc)],
                            problem_body("method-not-allowed"), headers, method)
            return
        # 3. the path
        if op is None:
            self._send_json(404, base + [("Content-Type", "application/problem+json"), ("Cache-Control", cc)],
                            problem_body("not-found"), headers, method)
            return
        base.append(("Cache-Control", cc))
        pairs = parse_query(raw_query)
        now = time.time()
        try:
            # 4. credentials (personal streams), on the uid exactly as sent
            uid = None
            if personal:
                uids = [val for name, val in pairs if name == "uid" and val != ""]
                uid_occ = [val for name, val in pairs if name == "uid"]
                keys = self._hdr(headers, "x-api-key")
                if len(uid_occ) != 1 or len(uids) != 1 or uids[0] is DecodeError or \
                        not UID_RE.fullmatch(uids[0]) or keys is None or len(keys) != 1:
                    srv.store.check_key(0, "")  # the same work either way
                    raise Problem("unauthorized")
                uid = int(uids[0])
                if not srv.store.check_key(uid, keys[0]):
                    raise Problem("unauthorized")
            # 5. the parameters
            values, errors = validate(op, pairs, len(raw_query))
            if op == "getLegacyRankFile" and len(raw_query) <= MAX_QUERY:
                if legacy_act not in ACTS:
                    errors.append(err("act", "must be one of: " + ", ".join(ACTS) + f"; got {legacy_act!r}", "path"))
            ptype = "invalid-parameter"
            if not errors or len(raw_query) <= MAX_QUERY:
                ptype = self._rules(op, values, errors)
            if errors:
                raise Problem(ptype, errors)
            if op == "getMeta":
                body = srv.api.meta(values, now)
            elif op == "getRank":
                body = srv.api.rank(values, now)
            elif op == "getFeed":
                body = srv.api.feed(values, now)
            elif op == "searchAlerts":
                body = srv.api.search(values, now)
            elif op == "listActivities":
                body = srv.api.shenghuo(values, now)
            elif op == "getRss":
                xml = srv.api.rss(values, now).encode("utf-8")
                self._send_bytes(200, base + [("Content-Type", "application/rss+xml; charset=utf-8")], xml,
                                 headers, method)
                return
            elif op == "getLegacyRankFile":
                body = srv.api.legacy_rank(legacy_act, now)
            else:
                body = srv.api.personal(op, uid, values, now)
            self._send_json(200, base + [("Content-Type", "application/json")], body, headers, method)
        except Problem as p:
            self._send_json(PROBLEMS[p.code][0], base + [("Content-Type", "application/problem+json")],
                            problem_body(p.code, p.errors, p.detail), headers, method)
        except Exception:  # never leak a traceback; a 500 problem
            import traceback
            traceback.print_exc()
            self._send_json(500, base + [("Content-Type", "application/problem+json")],
                            problem_body("internal"), headers, method)

    def _rules(self, op, v, errors):
        """The operation's refusing rules (x-conformance with a 4xx then.status)."""
        named = {e["name"] for e in errors}
        if op == "searchAlerts":
            crit = ["q", "kp", "mip", "mxp"]
            blank = all(n not in named and n not in v["_read"] for n in crit)
            if blank:
                reason = "give at least one of q, kp, mip or mxp with a non-empty value"
                for n in crit:
                    errors.append(err(n, reason))
                return "missing-search-criterion"
            if "mip" in v["_read"] and "mxp" in v["_read"] and v["mip"] > v["mxp"]:
                reason = "the range is empty: mip must not be greater than mxp (both are inclusive, in yuan)"
                errors.append(err("mip", reason))
                errors.append(err("mxp", reason))
        elif op == "getFeed":
            if v.get("type") == "zdm" and "cate" in v["_read"] and v["cate"] != "all":
                errors.append(err("cate", "cannot be combined with type=zdm (the zdm stream has no categories)"))
        return "invalid-parameter"

    def _refuse_parsed(self, code, key, personal):
        self.close_connection = True
        ok, rl, retry = self.server.limiter.take(key, count=True)
        base = list(rl.items()) + [("Access-Control-Allow-Origin", "*"), ("Access-Control-Expose-Headers", EXPOSE)]
        if not ok:
            self._write(429, base + [("Retry-After", str(retry)), ("Content-Type", "application/problem+json"),
                                     ("Cache-Control", CC_LIMITED)],
                        json.dumps(self._limited_body(retry), ensure_ascii=False, separators=(",", ":")).encode())
            return
        self._write(PROBLEMS[code][0], base + [("Content-Type", "application/problem+json"), ("Cache-Control", CC_PUBLIC)],
                    json.dumps(problem_body(code), ensure_ascii=False, separators=(",", ":")).encode())

    def _send_json(self, status, hdrs, obj, req_headers, method):
        body = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        self._send_bytes(status, hdrs, body, req_headers, method)

    def _send_bytes(self, status, hdrs, body, req_headers, method):
        hdrs = list(hdrs) + [("Vary", "Accept-Encoding")]
        if len(body) >= COMPRESS_MIN:
            coding = parse_accept_encoding(self._hdr(req_headers, "accept-encoding"))
            if coding == "gzip":
                body = gzip.compress(body, compresslevel=6, mtime=0)
                hdrs.append(("Content-Encoding", "gzip"))
            elif coding == "deflate":
                body = zlib.compress(body, 6)
                hdrs.append(("Content-Encoding", "deflate"))
        self._write(status, hdrs, body, head_only=(method == "HEAD"))


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256
    allow_reuse_address = True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--trusted-proxy", default="",
                    help="comma-separated addresses (or CIDR networks) whose X-Forwarded-For is trusted")
    ap.add_argument("--live", type=float, default=0, help="add a new alert every SECONDS seconds")
    ap.add_argument("--verbose", action="store_true", help="log one line per request (never headers)")
    args = ap.parse_args()

    trusted = []
    for t in filter(None, (x.strip() for x in args.trusted_proxy.split(","))):
        trusted.append(ipaddress.ip_network(t, strict=False))

    now = time.time()
    store = Store(now)
    uid = 10001
    key = secrets.token_hex(16)
    store.add_account(uid, key, follow_words=["京东", "红包", "立减金", "PLUS"],
                      push_rule={"cates": ("10", "30"), "max_price": Decimal("50"), "words": ["免费领", "0.01元"]})

    if ":" in args.host:
        Server.address_family = socket.AF_INET6
    httpd = Server((args.host, args.port), Handler)
    host_shown = f"[{args.host}]" if ":" in args.host else args.host
    port = httpd.server_address[1]
    httpd.trusted = trusted
    httpd.limiter = Limiter()
    httpd.store = store
    httpd.api = Api(store, f"http://{host_shown}:{port}")
    httpd.verbose = args.verbose

    if args.live and args.live > 0:
        def tick():
            while True:
                time.sleep(args.live)
                store.add_live_alert()
        threading.Thread(target=tick, daemon=True).start()

    print(f"listening on http://{host_shown}:{port}, demo uid {uid} key {key}", flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
