"""Vetting a server's definitions before a model trusts them: what a server says of itself and
its tools (descriptions, schemas, instructions) as plain data, the checks that find poisoning in
it, and the pins that catch a definition changing after a person looked. Built on
``core.protocol`` and the policy only: it knows nothing of sessions or of Jupyter.
"""

__all__: list[str] = []
