# Sourced by scripts/lab, scripts/dashboard and scripts/test: make .venv with the package and the
# given extra. Idempotent: installs only when pyproject.toml changed since the last install of that
# extra or of the test extra (which holds every other: anvia_nb[lab,dashboard,dask]).
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
fresh() { [ -f "$1" ] && ! [ "$repo/pyproject.toml" -nt "$1" ]; }
if ! fresh "$stamp" && ! fresh "$venv/.installed-test"; then
    echo "installing anvia_nb[$extra] into .venv ..." >&2
    "$venv/bin/python" -m pip install -q -e "$repo[$extra]" 2>&1 | grep -v '^WARNING: Location' >&2 || true
    "$venv/bin/python" -c "import anvia_nb" >/dev/null
    touch "$stamp"
fi
export PATH="$venv/bin:$PATH"
