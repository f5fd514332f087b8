"""The words of ``%mcp connect``'s OAuth options with no person at a browser (pure: the help and
Tab completion read them without loading the SDK)."""

from __future__ import annotations

__all__ = ["MACHINE_FLAGS", "MACHINE_OPTIONS"]

MACHINE_FLAGS = ("--oauth-client-credentials", "--oauth-workload-identity", "--oauth-identity-assertion")
MACHINE_OPTIONS = (
    "--client-id",
    "--scope",
    "--secret-env",
    "--secret-file",
    "--auth-method",
    "--key-env",
    "--key-file",
    "--key-alg",
    "--assertion-env",
    "--assertion-file",
    "--issuer",
    "--id-token-env",
    "--id-token-file",
    "--idp-token-endpoint",
    "--idp-client-id",
    "--token-env",
    "--token-file",
)
