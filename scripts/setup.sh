# Sourced by the other scripts: installs what a fresh machine lacks, once.
# Debian packages need `apt-get update` once before the first install.

apt_updated=""
apt_install() {
    local missing=()
    for pkg in "$@"; do
        dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    if [ -z "$apt_updated" ]; then
        $sudo apt-get update -qq
        apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

need_rust() {
    command -v cargo >/dev/null || { echo "cargo is missing: install Rust with rustup first" >&2; exit 2; }
}

# The reference reasoner used by the conformance tests (../shared/oracle) runs on SWI-Prolog.
need_oracle() {
    command -v swipl >/dev/null || apt_install swi-prolog-nox
}

# Java runs the third-party GGP software of ../shared/ggp-referee (the Dresden GameController,
# Jocular) that cli/tests/protocol.rs plays against.
need_java() {
    command -v java >/dev/null || apt_install default-jre-headless
}

# ---------------------------------------------------------------- the web page (wasm/, web/)
# Each step installs a tool only when it is missing, so a second run costs nothing.

# The wasm-bindgen version in Cargo.lock: the CLI must be exactly that version.
wasm_bindgen_version() {
    awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

need_wasm_tools() {
    need_rust
    rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown \
        || rustup target add wasm32-unknown-unknown
    local v
    v=$(wasm_bindgen_version)
    if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $v" ]; then
        echo "installing wasm-bindgen-cli $v (once, a few minutes)"
        # --locked can fail on a yanked dependency version; then resolve afresh.
        cargo install --quiet wasm-bindgen-cli --version "$v" --locked \
            || cargo install --quiet wasm-bindgen-cli --version "$v"
    fi
    if ! command -v wasm-pack >/dev/null; then
        echo "installing wasm-pack (once, a few minutes)"
        cargo install --quiet wasm-pack --locked || cargo install --quiet wasm-pack
    fi
}

# web/node_modules, reinstalled only when web/package-lock.json changes.
need_node_modules() {
    command -v npm >/dev/null || { echo "npm is missing: install Node.js 20 or later" >&2; exit 2; }
    local stamp=web/node_modules/.lock-sha256 want
    want=$(sha256sum web/package-lock.json | cut -d' ' -f1)
    if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
        (cd web && npm ci --no-audit --no-fund --loglevel=error)
        echo "$want" >"$stamp"
    fi
}

# Chromium for the browser tests (driven by npm playwright-core; nothing is downloaded).
need_chromium() {
    [ -x /usr/bin/chromium ] || apt_install chromium chromium-driver
}

# Builds the page into web/dist: the wasm package (web/pkg), then Vite.
build_web() {
    need_wasm_tools
    need_node_modules
    echo "== building the wasm engine (wasm-pack)"
    # Its own target dir (other builds keep theirs); a release tuned for size and speed.
    CARGO_TARGET_DIR="$PWD/target/wasm" CARGO_PROFILE_RELEASE_DEBUG=0 CARGO_PROFILE_RELEASE_LTO=fat \
        CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
        wasm-pack --quiet --log-level warn build wasm --release --target web --out-dir ../web/pkg --out-name gdl_wasm
    # wasm-pack cannot download wasm-opt here (disabled in wasm/Cargo.toml): binaryen's from npm.
    # It takes tens of seconds, so its output is kept per input (wasm-bindgen's is reproducible).
    local wasm=web/pkg/gdl_wasm_bg.wasm cache=target/wasm/wasm-opt
    local optimised
    optimised="$cache/$(sha256sum "$wasm" | cut -c1-32).wasm"
    if [ ! -f "$optimised" ]; then
        mkdir -p "$cache"
        web/node_modules/.bin/wasm-opt -O3 "$wasm" -o "$optimised.tmp" && mv "$optimised.tmp" "$optimised"
    fi
    cp "$optimised" "$wasm"
    # Keep the three most recent.
    ls -1t "$cache"/*.wasm | tail -n +4 | xargs -r rm --
    echo "== building the page (Vite)"
    (cd web && node_modules/.bin/tsc --noEmit && node_modules/.bin/vite build --logLevel warn)
}
