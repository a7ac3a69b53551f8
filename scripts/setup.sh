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
