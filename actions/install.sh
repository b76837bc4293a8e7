#!/usr/bin/env bash
# Installs dealkit ($PACKAGE: an npm spec such as dealkit@1, or a path to a packed tarball) into
# its own folder ($PREFIX, outside the workspace: the job's project and lockfile stay untouched)
# and puts its bin on the PATH of the steps that follow. The optional peers (Prism, Redocly) are
# not installed: the suite and the diff do not need them, and the install stays a few seconds.
set -euo pipefail
case "$PACKAGE" in
  ./* | ../* | /* | *.tgz) PACKAGE="$(realpath "$PACKAGE")" ;;
esac
mkdir -p "$PREFIX"
cd "$PREFIX"
# A package.json of its own, so npm installs here and not into a project further up.
[ -f package.json ] || echo '{ "private": true }' >package.json
npm install --no-audit --no-fund --loglevel=error "$PACKAGE"
echo "$PREFIX/node_modules/.bin" >>"$GITHUB_PATH"
echo "version=$("$PREFIX/node_modules/.bin/dealkit" --version)" >>"$GITHUB_OUTPUT"
