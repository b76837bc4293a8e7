# The recommended way to run the dealkit reference server behind Varnish (7.1+): a pass-through.
#
# Start the server trusting the address Varnish connects from, and only it, for X-Forwarded-For:
#     npx dealkit serve --port 8080 --trust-proxy 127.0.0.1
# To deploy, copy this file and replace {{UPSTREAM_HOST}}/{{UPSTREAM_PORT}} with the server's address.
# In the kit's own tests (test/stack/varnish.ts) they name a relay that reaches the server from
# 127.0.0.2, since Varnish cannot choose its backend source address.
#
# Run varnishd with `-p http_req_hdr_len=32k -p http_req_size=64k` (x-request-gate): a request line
# and headers up to the API's 16 KB cap must reach the API, and heads a little over it too, which the
# API answers 431 problem+json itself. By default Varnish answers an empty 400 to any header line
# over 8 KB (http_req_hdr_len), a long cookie or token the API serves.
#
# What it breaks: nothing the API controls. What Varnish still answers itself, whatever the VCL: an
# empty 400 without CORS for a header line that is no field or a broken request line (x-request-gate
# wants the 400 malformed-request problem: Varnish's HTTP/1 code writes that answer before any VCL
# runs), and for a head over those limits. A request without Host gets the problem below.
vcl 4.1;

backend dealkit {
    .host = "{{UPSTREAM_HOST}}";
    .port = "{{UPSTREAM_PORT}}";
    # A stopped server refuses at once; a dead host answers 503 after 5 s, not Varnish's 3.5 s default
    # which could cut a slow first connection.
    .connect_timeout = 5s;
}

sub vcl_recv {
    # No caching of the API. Its answers change with the data and the key (X-API-Key is not in
    # Varnish's cache key), and the server marks them private, no-store or no-cache, which Varnish
    # honours; pass says so outright and leaves no hit-for-miss objects behind. X-Forwarded-For
    # was already appended with the client's address by Varnish's core before this runs.
    # HTTP/1.1 without Host: the API's 400 malformed-request (vcl_synth), before Varnish sends it on.
    if (!req.http.host && req.proto ~ "(?i)^HTTP/1\.1") {
        return (synth(400, "Malformed request"));
    }
    return (pass);
}

sub vcl_synth {
    # x-request-gate.answered: problem+json with CORS, the connection closed after it. (The space
    # before the closing brace keeps `"}` out of the JSON: it would end the long string.)
    if (resp.status == 400) {
        set resp.http.Content-Type = "application/problem+json";
        set resp.http.Access-Control-Allow-Origin = "*";
        set resp.http.Connection = "close";
        synthetic({"{"type":"/problems/malformed-request","title":"Malformed request","status":400,"detail":"HTTP/1.1 requires a Host header." }"});
        return (deliver);
    }
}

sub vcl_deliver {
    # The API closes the connection after its 431 (x-request-gate.answered); Varnish drops the API's
    # Connection header and would keep the client's open: a Connection: close of its own closes it.
    if (resp.status == 431) {
        set resp.http.Connection = "close";
    }
}
