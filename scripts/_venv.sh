# Sourced by scripts/lab and scripts/test: make .venv with the package and the given extra.
# Idempotent: installs only when pyproject.toml changed since the last install.
set -eu
extra="$1"
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv="$repo/.venv"
python=${PYTHON:-python3}
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install -q --upgrade pip 2>&1 | grep -v '^WARNING: Location' >&2 || true
fi
stamp="$venv/.installed-$extra"
if [ ! -f "$stamp" ] || [ "$repo/pyproject.toml" -nt "$stamp" ]; then
    echo "installing anvia_nb[$extra] into .venv ..." >&2
    "$venv/bin/python" -m pip install -q -e "$repo[$extra]" 2>&1 | grep -v '^WARNING: Location' >&2 || true
    "$venv/bin/python" -c "import anvia_nb, jupyterlab" >/dev/null
    touch "$stamp"
fi
export PATH="$venv/bin:$PATH"
