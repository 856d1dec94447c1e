#!/usr/bin/env bash
# Installs a CPU Vulkan driver so that WebGPU (Dawn, through the npm `webgpu` package) opens an adapter on a
# GPU-less Debian bookworm machine. docs/webgpu.md ("Drivers") says why these two:
#
#   1. lavapipe from bookworm-backports (mesa-vulkan-drivers >= 25): the driver CI's WebGPU tests and bench use.
#      Bookworm's own lavapipe (Mesa 22.3) is rejected by Dawn: it lacks shaderSampledImageArrayDynamicIndexing.
#   2. chromium, whose package ships SwiftShader's Vulkan ICD (/usr/lib/chromium/vk_swiftshader_icd.json): the
#      fallback when backports cannot be reached (about 30x slower), and the browser the e2e tests drive.
#
# Idempotent, apt-get only, run as root on Debian bookworm. Prints what it did. Exits 0 when a driver Dawn
# accepts is installed. The order (chromium from bookworm first, then Mesa from backports) is the tested one.
set -euo pipefail

say() { printf 'install-vulkan: %s\n' "$*"; }

backportsList=/etc/apt/sources.list.d/bookworm-backports.sources
swiftshaderIcd=/usr/lib/chromium/vk_swiftshader_icd.json
# Dawn accepts lavapipe from this Mesa major version on (25.0.7 tested; 22.3.6 rejected).
lavapipeMesaMajorMin=25

if [ "$(id -u)" != 0 ]; then say "must run as root (uses apt-get)"; exit 1; fi
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
export DEBIAN_FRONTEND=noninteractive

version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true; }
installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
lavapipeOk() {
  installed mesa-vulkan-drivers || return 1
  local major
  major=$(version mesa-vulkan-drivers | sed -E 's/^([0-9]+:)?([0-9]+).*/\2/')
  [ "$major" -ge "$lavapipeMesaMajorMin" ]
}
swiftshaderOk() { installed chromium && installed libvulkan1 && [ -f "$swiftshaderIcd" ]; }

if lavapipeOk && swiftshaderOk; then
  say "already installed: mesa-vulkan-drivers $(version mesa-vulkan-drivers) (lavapipe)," \
    "chromium $(version chromium) (SwiftShader ICD), libvulkan1 $(version libvulkan1); nothing to do"
  exit 0
fi

if [ "$codename" = bookworm ] && ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  say "adding the bookworm-backports source: $backportsList"
  cat > "$backportsList" <<'EOF'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
fi
say "apt-get update"
apt-get update -q

if ! swiftshaderOk; then
  say "apt-get install chromium libvulkan1 (chromium ships the SwiftShader Vulkan ICD)"
  apt-get install -y -q chromium libvulkan1
fi

if ! lavapipeOk; then
  if [ "$codename" = bookworm ]; then
    say "apt-get install -t bookworm-backports mesa-vulkan-drivers (lavapipe, Mesa >= $lavapipeMesaMajorMin)"
    apt-get install -y -q -t bookworm-backports mesa-vulkan-drivers libvulkan1 ||
      say "WARNING: lavapipe from bookworm-backports did not install; WebGPU falls back to SwiftShader (slow)"
  else
    say "not bookworm ($codename): apt-get install mesa-vulkan-drivers from the distribution"
    apt-get install -y -q mesa-vulkan-drivers libvulkan1 ||
      say "WARNING: mesa-vulkan-drivers did not install; WebGPU falls back to SwiftShader (slow)"
  fi
fi

if lavapipeOk; then
  say "CPU driver for WebGPU: lavapipe, mesa-vulkan-drivers $(version mesa-vulkan-drivers)"
elif swiftshaderOk; then
  say "CPU driver for WebGPU: SwiftShader ($swiftshaderIcd); mesa-vulkan-drivers $(version mesa-vulkan-drivers) is too old for Dawn"
else
  say "ERROR: no CPU Vulkan driver that Dawn accepts was installed"
  exit 1
fi
