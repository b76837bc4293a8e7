# FAULTY, a test fixture: Varnish with a TTL override that stores the API's 429 answers.
#
# A common "shield the backend from error storms" snippet: the 429 a client earned is kept 60 s
# and replayed to every client asking for the same URL, whatever its address, with the first
# client's Retry-After, RateLimit-* headers, Date and an Age that grows. What it breaks: the
# per-IP rate limit (other clients are refused for a limit they never reached; the limited client
# stays refused past its Retry-After), and the RateLimit-* headers, which describe someone else.
# Everything else is Varnish's builtin behaviour: answers marked private, no-store or no-cache are
# not stored.
vcl 4.1;

backend dealkit {
    .host = "{{UPSTREAM_HOST}}";
    .port = "{{UPSTREAM_PORT}}";
    .connect_timeout = 5s;
}

sub vcl_backend_response {
    if (beresp.status == 429) {
        # The fault: a TTL set by status, overriding the answer's own Cache-Control.
        set beresp.ttl = 60s;
        set beresp.grace = 0s;
        set beresp.uncacheable = false;
        return (deliver);
    }
}
