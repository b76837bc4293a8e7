# The recommended way to run the dealkit reference server behind Varnish (7.1+): a pass-through.
#
# Start the server trusting the address Varnish connects from, and only it, for X-Forwarded-For:
#     npx dealkit serve --port 8080 --trust-proxy 127.0.0.1
# To deploy, copy this file and replace {{UPSTREAM_HOST}}/{{UPSTREAM_PORT}} with the server's address.
# In the kit's own tests (test/stack/varnish.ts) they name a relay that reaches the server from
# 127.0.0.2, since Varnish cannot choose its backend source address.
#
# What it breaks: nothing the API controls. What Varnish still answers itself, by its defaults: an
# empty 400 for a header line over 8 KB (http_req_hdr_len; `-p http_req_hdr_len=16k` lets the API
# answer up to its own 16 KB cap) and for a whole request head over 32 KB (http_req_size). A
# request line of 9 KB does reach the API, and so does a request without Host: vcl_recv below
# returns before Varnish's builtin one, whose check would answer that with its own 400.
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
    return (pass);
}
