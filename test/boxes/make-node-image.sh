#!/bin/sh
# Builds the local image the Podman box test runs its fixture in, from this machine's parts only
# (no registry pull): this machine's `node` at its own path and the libraries `ldd` lists, a
# world-writable /tmp, nothing else. The fixture's code and node_modules come in as the box's
# read-only grant, so the image needs no npm. Usage (as the user that runs the tests):
#
#   sh test/boxes/make-node-image.sh [image]     # default localhost/mcptools-test-node:local
set -eu
image="${1:-localhost/mcptools-test-node:local}"
node="$(readlink -f "$(command -v node)")"
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
chmod 755 "$root"
mkdir -p "$root$(dirname "$node")" "$root/tmp"
chmod 1777 "$root/tmp"
cp "$node" "$root$node"
# The path the tests run node by (process.execPath) may be a link to the binary copied above.
link="$(command -v node)"
if [ "$link" != "$node" ]; then mkdir -p "$root$(dirname "$link")"; ln -s "$node" "$root$link"; fi
for library in $(ldd "$node" | grep -o '/[^ ]*'); do
  mkdir -p "$root$(dirname "$library")"
  cp -L "$library" "$root$library"
done
tar -C "$root" -c . | podman import --quiet - "$image" >/dev/null
echo "$image"
